package dev.vtbench.agent;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Samples a running JVM over remote JMX and prints one JSON object per line on stdout.
 *
 * <p>Usage: {@code java -cp vtbench-agent.jar dev.vtbench.agent.JmxSampler --jmx 127.0.0.1:<port>
 * --interval-ms 250 [--pid <pid>] [--connect-timeout-ms 60000]}. Line schemas: see sut/agent/README.md. Exit codes: 0 on SIGTERM,
 * stdin EOF or target disconnect (after {@code {"end":"disconnected"}}); 2 when the target cannot be
 * reached within 60 s ({@code {"error":"..."}}); 1 on bad arguments.
 *
 * <p>MBean names and attributes: java.lang platform MXBeans; {@code jdk.management:type=VirtualThreadScheduler}
 * (JDK 24+, jdk.management.VirtualThreadSchedulerMXBean, −1 = unknown); {@code Tomcat:type=ThreadPool,name=*}
 * (needs server.tomcat.mbeanregistry.enabled=true); {@code com.zaxxer.hikari:type=Pool (*)} and
 * {@code type=PoolConfig (*)} (needs spring.datasource.hikari.register-mbeans=true).
 */
public final class JmxSampler {
  static final Pattern SECRET_KEY = Pattern.compile("password|secret|token|credential|api[-_.]?key", Pattern.CASE_INSENSITIVE);
  static final long CONNECT_TIMEOUT_MS = 60_000;

  private final MBeanServerConnection mbsc;
  private final Integer pid;
  private final Map<ObjectName, String> hikariConfigNames = new HashMap<>();

  JmxSampler(MBeanServerConnection mbsc, Integer pid) {
    this.mbsc = mbsc;
    this.pid = pid;
  }

  public static void main(String[] args) throws Exception {
    String jmx = null;
    long intervalMs = 250;
    Integer pid = null;
    long connectTimeoutMs = CONNECT_TIMEOUT_MS;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (a) {
        case "--jmx" -> { jmx = v; i++; }
        case "--interval-ms" -> { intervalMs = Long.parseLong(v); i++; }
        case "--pid" -> { pid = Integer.valueOf(v); i++; }
        case "--connect-timeout-ms" -> { connectTimeoutMs = Long.parseLong(v); i++; }
        default -> {
          System.err.println("unknown argument " + a + "; usage: JmxSampler --jmx host:port [--interval-ms 250] [--pid N] [--connect-timeout-ms 60000]");
          System.exit(1);
        }
      }
    }
    if (jmx == null || intervalMs <= 0) {
      System.err.println("usage: JmxSampler --jmx host:port [--interval-ms 250] [--pid N]");
      System.exit(1);
    }
    Writer out = new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8);
    Stopper stop = new Stopper();
    stop.install();

    JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + jmx + "/jmxrmi");
    JMXConnector connector = null;
    long deadline = System.currentTimeMillis() + connectTimeoutMs;
    String lastError = "not tried";
    while (connector == null) {
      if (stop.stopped()) System.exit(0);
      try {
        connector = JMXConnectorFactory.connect(url, null);
      } catch (IOException | SecurityException e) {
        lastError = e.toString();
        if (System.currentTimeMillis() >= deadline) {
          line(out, new Json().open().field("error", "could not connect to " + url + " within " + connectTimeoutMs + " ms: " + lastError).close().toString());
          System.exit(2);
        }
        Thread.sleep(200);
      }
    }
    JmxSampler sampler = new JmxSampler(connector.getMBeanServerConnection(), pid);
    try {
      line(out, sampler.info());
      long next = System.currentTimeMillis();
      while (!stop.stopped()) {
        line(out, sampler.sample());
        next += intervalMs;
        long now = System.currentTimeMillis();
        if (next < now) next = now; // fell behind: do not burst
        stop.sleepUntil(next);
      }
    } catch (IOException e) {
      if (!stop.stopped()) line(out, "{\"end\":\"disconnected\"}");
    } finally {
      try {
        connector.close();
      } catch (IOException | RuntimeException ignored) {
        // the target is gone
      }
    }
    out.flush();
    Runtime.getRuntime().halt(0);
  }

  /** Writes one line and flushes; a closed stdout (EPIPE) ends the sampler with 0. */
  static void line(Writer out, String json) {
    try {
      out.write(json);
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      Runtime.getRuntime().halt(0);
    }
  }

  /** The first line: {"info":{vmVendor, vmVersion, javaVersion, inputArguments (redacted), availableProcessors, pid, startTimeEpochMs}}. */
  String info() throws IOException {
    ObjectName rt = on("java.lang:type=Runtime");
    AttributeList al = attrs(rt, "VmVendor", "VmVersion", "InputArguments", "Pid", "StartTime", "SystemProperties");
    Map<String, Object> a = toMap(al);
    Object cpus = get(on("java.lang:type=OperatingSystem"), "AvailableProcessors");
    String javaVersion = null;
    if (a.get("SystemProperties") instanceof TabularData td) {
      for (Object row : td.values()) {
        if (row instanceof CompositeData cd && "java.version".equals(cd.get("key"))) javaVersion = String.valueOf(cd.get("value"));
      }
    }
    Json j = new Json().open().key("info").open();
    j.field("vmVendor", str(a.get("VmVendor")));
    j.field("vmVersion", str(a.get("VmVersion")));
    j.field("javaVersion", javaVersion);
    j.key("inputArguments");
    if (a.get("InputArguments") instanceof String[] argsArr) {
      j.openArray();
      for (String s : argsArr) j.element().value(redact(s));
      j.closeArray();
    } else {
      j.nullValue();
    }
    j.field("availableProcessors", num(cpus));
    j.field("pid", num(a.get("Pid")));
    j.field("startTimeEpochMs", num(a.get("StartTime")));
    return j.close().close().toString();
  }

  /** `-Dkey=value` (or any `key=value`) whose key matches {@link #SECRET_KEY} → `key=***`. The brief said /api-?key/i; `api_key`/`api.key` are redacted too. */
  static String redact(String arg) {
    int eq = arg.indexOf('=');
    if (eq < 0) return arg;
    String key = arg.substring(0, eq);
    return SECRET_KEY.matcher(key).find() ? key + "=***" : arg;
  }

  /** One sample line (schema in README.md). @throws IOException when the connection is lost */
  String sample() throws IOException {
    long t = System.currentTimeMillis();
    Map<String, Object> os = toMap(attrs(on("java.lang:type=OperatingSystem"), "ProcessCpuTime", "ProcessCpuLoad"));
    Map<String, Object> mem = toMap(attrs(on("java.lang:type=Memory"), "HeapMemoryUsage"));
    Object threads = get(on("java.lang:type=Threading"), "ThreadCount");

    Json j = new Json().open();
    j.field("t", t);
    Number cpuNs = num(os.get("ProcessCpuTime"));
    j.field("cpuNs", cpuNs != null && cpuNs.longValue() < 0 ? null : cpuNs);
    Number load = num(os.get("ProcessCpuLoad"));
    j.field("cpuLoad", load != null && load.doubleValue() < 0 ? null : load);
    Long heapUsed = null;
    Long heapCommitted = null;
    if (mem.get("HeapMemoryUsage") instanceof CompositeData cd) {
      heapUsed = (Long) cd.get("used");
      heapCommitted = (Long) cd.get("committed");
    }
    j.field("heapUsed", heapUsed);
    j.field("heapCommitted", heapCommitted);
    j.field("rss", pid == null ? null : rssBytes(pid));
    j.field("threads", num(threads));

    long gcCount = 0;
    long gcTime = 0;
    boolean anyGc = false;
    for (ObjectName gc : query("java.lang:type=GarbageCollector,name=*")) {
      Map<String, Object> g = toMap(attrs(gc, "CollectionCount", "CollectionTime"));
      Number c = num(g.get("CollectionCount"));
      Number tm = num(g.get("CollectionTime"));
      if (c != null && c.longValue() >= 0) { gcCount += c.longValue(); anyGc = true; }
      if (tm != null && tm.longValue() >= 0) { gcTime += tm.longValue(); anyGc = true; }
    }
    j.field("gcCount", anyGc ? gcCount : null);
    j.field("gcTimeMs", anyGc ? gcTime : null);

    j.key("vt");
    ObjectName vtName = on("jdk.management:type=VirtualThreadScheduler");
    Map<String, Object> vt = mbsc.isRegistered(vtName)
        ? toMap(attrs(vtName, "Parallelism", "PoolSize", "MountedVirtualThreadCount", "QueuedVirtualThreadCount"))
        : null;
    if (vt == null) {
      j.nullValue();
    } else {
      j.open();
      j.field("parallelism", known(vt.get("Parallelism")));
      j.field("poolSize", known(vt.get("PoolSize")));
      j.field("mounted", known(vt.get("MountedVirtualThreadCount")));
      j.field("queued", known(vt.get("QueuedVirtualThreadCount")));
      j.close();
    }

    j.key("tomcat").openArray();
    for (ObjectName tp : query("Tomcat:type=ThreadPool,name=*")) {
      Map<String, Object> a = toMap(attrs(tp, "currentThreadsBusy", "currentThreadCount", "maxThreads", "connectionCount", "maxConnections"));
      j.element().open();
      j.field("name", unquote(tp.getKeyProperty("name")));
      j.field("busy", num(a.get("currentThreadsBusy")));
      j.field("threads", num(a.get("currentThreadCount")));
      j.field("max", num(a.get("maxThreads")));
      j.field("conns", num(a.get("connectionCount")));
      j.field("maxConns", num(a.get("maxConnections")));
      j.close();
    }
    j.closeArray();

    j.key("hikari").openArray();
    for (ObjectName p : query("com.zaxxer.hikari:type=Pool (*)")) {
      String pool = poolName(p.getKeyProperty("type"));
      Map<String, Object> a = toMap(attrs(p, "ActiveConnections", "IdleConnections", "ThreadsAwaitingConnection", "TotalConnections"));
      Number max = null;
      if (pool != null) {
        ObjectName cfg = on("com.zaxxer.hikari:type=PoolConfig (" + pool + ")");
        max = num(getIfRegistered(cfg, "MaximumPoolSize"));
      }
      j.element().open();
      j.field("pool", pool);
      j.field("active", num(a.get("ActiveConnections")));
      j.field("idle", num(a.get("IdleConnections")));
      j.field("pending", num(a.get("ThreadsAwaitingConnection")));
      j.field("total", num(a.get("TotalConnections")));
      j.field("max", max);
      j.close();
    }
    j.closeArray();
    j.key("executors").openArray().closeArray();
    return j.close().toString();
  }

  static final Pattern POOL = Pattern.compile("^Pool(?:Config)? \\((.*)\\)$");

  static String poolName(String typeValue) {
    if (typeValue == null) return null;
    Matcher m = POOL.matcher(unquote(typeValue));
    return m.matches() ? m.group(1) : null;
  }

  static String unquote(String v) {
    if (v != null && v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
      try {
        return ObjectName.unquote(v);
      } catch (IllegalArgumentException e) {
        return v;
      }
    }
    return v;
  }

  /** VmRSS from /proc/<pid>/status, in bytes; null when unreadable. */
  static Long rssBytes(int pid) {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (l.startsWith("VmRSS:")) {
          String[] parts = l.substring(6).trim().split("\\s+");
          long v = Long.parseLong(parts[0]);
          String unit = parts.length > 1 ? parts[1] : "kB";
          return "kB".equalsIgnoreCase(unit) ? v * 1024 : v;
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return null;
  }

  private static ObjectName on(String s) {
    try {
      return new ObjectName(s);
    } catch (Exception e) {
      throw new IllegalArgumentException(s, e);
    }
  }

  private Set<ObjectName> query(String pattern) throws IOException {
    try {
      return new TreeSet<>(mbsc.queryNames(on(pattern), null));
    } catch (IOException e) {
      throw e;
    } catch (RuntimeException e) {
      return Set.of();
    }
  }

  /** getAttributes: a missing MBean or any non-I/O failure gives an empty list (each field null). */
  private AttributeList attrs(ObjectName name, String... names) throws IOException {
    try {
      return mbsc.getAttributes(name, names);
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      return new AttributeList();
    }
  }

  private Object get(ObjectName name, String attr) throws IOException {
    try {
      return mbsc.getAttribute(name, attr);
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      return null;
    }
  }

  private Object getIfRegistered(ObjectName name, String attr) throws IOException {
    try {
      return mbsc.getAttribute(name, attr);
    } catch (InstanceNotFoundException e) {
      return null;
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      return null;
    }
  }

  private static Map<String, Object> toMap(AttributeList al) {
    Map<String, Object> m = new HashMap<>();
    for (Attribute a : al.asList()) m.put(a.getName(), a.getValue());
    return m;
  }

  private static Number num(Object o) {
    return o instanceof Number n ? n : null;
  }

  /** −1 (or any negative) from the VirtualThreadScheduler MXBean means unknown → null. */
  private static Number known(Object o) {
    Number n = num(o);
    return n == null || n.longValue() < 0 ? null : n;
  }

  private static String str(Object o) {
    return o == null ? null : String.valueOf(o);
  }

  /** Stop on SIGTERM/SIGINT or stdin EOF (unless stdin is /dev/null, where EOF is immediate and means nothing). */
  static final class Stopper {
    private final Object lock = new Object();
    private volatile boolean stopped;

    void install() {
      for (String sig : List.of("TERM", "INT")) {
        try {
          sun.misc.Signal.handle(new sun.misc.Signal(sig), s -> stop());
        } catch (Throwable ignored) {
          // the signal is not available here: the default handler stays
        }
      }
      if (!stdinIsDevNull()) {
        Thread t = new Thread(() -> {
          InputStream in = System.in;
          byte[] buf = new byte[256];
          try {
            while (in.read(buf) >= 0) {
              // discard
            }
          } catch (IOException ignored) {
            // treat like EOF
          }
          stop();
        }, "stdin-eof");
        t.setDaemon(true);
        t.start();
      }
    }

    static boolean stdinIsDevNull() {
      try {
        return Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString().equals("/dev/null");
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }

    void stop() {
      stopped = true;
      synchronized (lock) {
        lock.notifyAll();
      }
    }

    boolean stopped() {
      return stopped;
    }

    void sleepUntil(long epochMs) throws InterruptedException {
      synchronized (lock) {
        long d;
        while (!stopped && (d = epochMs - System.currentTimeMillis()) > 0) lock.wait(d);
      }
    }
  }

  /** For tests: the names of the VirtualThreadScheduler attributes found in its MBeanInfo. */
  static List<String> attributeNames(MBeanServerConnection c, ObjectName n) throws Exception {
    List<String> out = new ArrayList<>();
    for (var a : c.getMBeanInfo(n).getAttributes()) out.add(a.getName());
    return out;
  }
}
