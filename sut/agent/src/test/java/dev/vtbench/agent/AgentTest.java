package dev.vtbench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AgentTest {
  static final long MS = 1_000_000L;

  record Task(String executor, Long waitNs, Long runNs) {}

  record Rec(String id, Long webWaitNs, long serviceNs, List<Task> tasks) {}

  static final Pattern REC = Pattern.compile("^\\{\"id\":\"([^\"]*)\",\"webWaitNs\":(null|\\d+),\"serviceNs\":(\\d+),\"tasks\":\\[(.*)\\]\\}$");
  static final Pattern TASK = Pattern.compile("\\{\"executor\":\"([^\"]*)\",\"waitNs\":(null|\\d+),\"runNs\":(null|\\d+)\\}");

  static Long n(String s) {
    return "null".equals(s) ? null : Long.valueOf(s);
  }

  static Rec parse(String line) { // also used by TomcatAgentTest
    Matcher m = REC.matcher(line);
    assertTrue(m.matches(), line);
    List<Task> tasks = new ArrayList<>();
    Matcher t = TASK.matcher(m.group(4));
    while (t.find()) tasks.add(new Task(t.group(1), n(t.group(2)), n(t.group(3))));
    return new Rec(m.group(1), n(m.group(2)), Long.parseLong(m.group(3)), tasks);
  }

  @Test
  void parsesAgentArguments() {
    assertEquals(Map.of("port", "0", "header", "x-vtbench-id"), AgentInstaller.parseArgs(null));
    assertEquals(Map.of("port", "7001", "header", "x-req"), AgentInstaller.parseArgs("port=7001,header=x-req"));
    try {
      AgentInstaller.parseArgs("prot=1");
      throw new AssertionError("accepted an unknown key");
    } catch (IllegalArgumentException expected) {
      assertTrue(expected.getMessage().contains("prot"));
    }
  }

  @Test
  void timesTasksAndRequestsInAChildJvm() throws Exception {
    int port = ChildJvm.freePort();
    Process p = new ProcessBuilder(ChildJvm.java(), "-javaagent:" + ChildJvm.agentJar() + "=port=" + port,
        "-cp", TomcatAgentTest.childClassPath("org/springframework/", "commons-logging", "jspecify"), "dev.vtbench.agent.AgentTarget")
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("READY", out.readLine());
      HttpClient http = HttpClient.newHttpClient();
      String stats = get(http, port, "/stats");
      String records = get(http, port, "/records");
      String again = get(http, port, "/records");

      for (String c : List.of("java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.ThreadPerTaskExecutor",
          "org.springframework.core.task.SimpleAsyncTaskExecutor")) {
        assertTrue(stats.contains("\"" + c + "\""), "instrumented " + c + ": " + stats);
      }
      assertTrue(stats.matches("(?s)\\{\"requests\":3,\"recorded\":3,\"tasks\":\\d+,\"dropped\":0,\"buffered\":3,.*"), stats);
      Matcher tasks = Pattern.compile("\"tasks\":(\\d+)").matcher(stats);
      assertTrue(tasks.find());
      assertTrue(Long.parseLong(tasks.group(1)) >= 8, "at least the 8 tasks the program submitted: " + stats);

      Map<String, Rec> byId = new HashMap<>();
      for (String l : records.split("\n")) if (!l.isBlank()) byId.put(parse(l).id(), parse(l));
      assertEquals(java.util.Set.of("tpe", "vt", "spring"), byId.keySet(), records);
      assertEquals("", again.strip(), "drained");

      Rec tpe = byId.get("tpe");
      assertEquals(2, tpe.tasks().size(), records);
      Task first = tpe.tasks().get(0);
      Task second = tpe.tasks().get(1);
      assertEquals("ThreadPoolExecutor", first.executor());
      assertTrue(first.runNs() >= 50 * MS, "a task sleeping 50 ms runs >= 50 ms: " + first);
      assertTrue(second.waitNs() >= 50 * MS, "the task queued behind it waits >= 50 ms: " + second);
      assertTrue(second.runNs() < 50 * MS, second.toString());
      assertEquals(null, tpe.webWaitNs(), "no executor task around a test request on main");

      Rec vt = byId.get("vt");
      assertEquals(3, vt.tasks().size(), "submit, execute and the nested execute: " + records);
      for (Task t : vt.tasks()) {
        assertEquals("ThreadPerTaskExecutor", t.executor());
        assertNotNull(t.waitNs());
        assertTrue(t.waitNs() < 5_000 * MS, t.toString());
      }
      assertTrue(vt.tasks().stream().anyMatch(t -> t.runNs() >= 50 * MS), records);


      Rec spring = byId.get("spring");
      assertEquals(2, spring.tasks().size(), records);
      assertEquals("SimpleAsyncTaskExecutor", spring.tasks().get(0).executor());
      assertTrue(spring.tasks().get(0).runNs() >= 50 * MS, records);
      assertTrue(spring.tasks().get(1).waitNs() >= 50 * MS, "the concurrency limit held the second task back: " + records);
      assertTrue(spring.serviceNs() >= 50 * MS, "the caller was blocked in execute(): " + records);
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  static String get(HttpClient http, int port, String path) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), path);
    return r.body();
  }
}
