package dev.vtbench.agent.boot;

import java.util.ArrayList;
import java.util.List;

/**
 * One request served by Tomcat (CoyoteAdapter.service) that carried the id header: its web-server wait,
 * its service time and the tasks submitted while it (or a task it submitted) was running.
 */
public final class RequestRecord {
  final String id;
  /** submit→start of the executor task running on the thread when service() began; -1 = unknown */
  final long webWaitNs;
  final long serviceStartNs;
  volatile long serviceEndNs;
  private final List<TimedTask> tasks = new ArrayList<>(2);

  RequestRecord(String id, long webWaitNs, long serviceStartNs) {
    this.id = id;
    this.webWaitNs = webWaitNs;
    this.serviceStartNs = serviceStartNs;
  }

  void add(TimedTask t) {
    synchronized (tasks) {
      tasks.add(t);
    }
  }

  /**
   * {"id":"..","webWaitNs":<or null>,"serviceNs":..,"tasks":[{"executor":"<simple class name>","waitNs":..,"runNs":..}]};
   * a task not yet started has waitNs null, one not yet finished runNs null.
   */
  public void appendJson(StringBuilder sb) {
    sb.append("{\"id\":");
    Recorder.jsonString(sb, id);
    sb.append(",\"webWaitNs\":");
    if (webWaitNs < 0) sb.append("null");
    else sb.append(webWaitNs);
    sb.append(",\"serviceNs\":");
    long end = serviceEndNs;
    if (end == 0) sb.append("null");
    else sb.append(end - serviceStartNs);
    sb.append(",\"tasks\":[");
    TimedTask[] ts;
    synchronized (tasks) {
      ts = tasks.toArray(new TimedTask[0]);
    }
    for (int i = 0; i < ts.length; i++) {
      TimedTask t = ts[i];
      if (i > 0) sb.append(',');
      sb.append("{\"executor\":");
      Recorder.jsonString(sb, Recorder.simpleName(t.executor));
      long start = t.startNs;
      long stop = t.endNs;
      sb.append(",\"waitNs\":");
      if (start == 0) sb.append("null");
      else sb.append(start - t.submitNs);
      sb.append(",\"runNs\":");
      if (start == 0 || stop == 0) sb.append("null");
      else sb.append(stop - start);
      sb.append('}');
    }
    sb.append("]}");
  }
}
