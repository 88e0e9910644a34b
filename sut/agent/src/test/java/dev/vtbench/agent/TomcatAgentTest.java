package dev.vtbench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The agent against a real embedded Tomcat 11 (its CoyoteAdapter, ThreadPoolExecutor and VirtualThreadExecutor). */
class TomcatAgentTest {
  static final long MS = 1_000_000L;

  /**
   * The jars of this JVM's class path (surefire runs without a manifest-only jar) whose path contains one of
   * `parts`, then the test classes: a child JVM gets the libraries, never target/classes (it must use the agent jar).
   */
  static String childClassPath(String... parts) {
    String jars = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(p -> Arrays.stream(parts).anyMatch(p::contains))
        .collect(Collectors.joining(File.pathSeparator));
    if (jars.isEmpty()) throw new IllegalStateException("no jar matching " + Arrays.toString(parts) + " on java.class.path: " + System.getProperty("java.class.path"));
    return jars + File.pathSeparator + ChildJvm.testClasses();
  }

  record Served(Map<String, AgentTest.Rec> records, String stats, List<String> bodies) {}

  /** Starts TomcatTarget with the agent, sends two concurrent 100 ms requests with ids and one without, returns /records and /stats. */
  static Served serve(String mode) throws Exception {
    int agentPort = ChildJvm.freePort();
    Process p = new ProcessBuilder(ChildJvm.java(), "-javaagent:" + ChildJvm.agentJar() + "=port=" + agentPort,
        "-cp", childClassPath("org/apache/tomcat/"), "dev.vtbench.agent.TomcatTarget", mode)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertNotNull(line, "TomcatTarget ended before it started");
      assertTrue(line.startsWith("PORT "), line);
      int port = Integer.parseInt(line.substring(5).trim());
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
      // one unrecorded request first: Tomcat and the servlet are warm when the timed pair arrives
      assertEquals(200, http.send(req(port, null), HttpResponse.BodyHandlers.ofString()).statusCode());
      List<CompletableFuture<HttpResponse<String>>> pair = new ArrayList<>();
      for (String id : List.of("r1", "r2")) pair.add(http.sendAsync(req(port, id), HttpResponse.BodyHandlers.ofString()));
      List<String> bodies = new ArrayList<>();
      for (var f : pair) {
        HttpResponse<String> r = f.get(10, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode());
        bodies.add(r.body());
      }
      String stats = AgentTest.get(http, agentPort, "/stats");
      Map<String, AgentTest.Rec> byId = new HashMap<>();
      for (String l : AgentTest.get(http, agentPort, "/records").split("\n")) {
        if (!l.isBlank()) byId.put(AgentTest.parse(l).id(), AgentTest.parse(l));
      }
      return new Served(byId, stats, bodies);
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  static HttpRequest req(int port, String id) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/?ms=100")).timeout(Duration.ofSeconds(10));
    if (id != null) b.header("x-vtbench-id", id);
    return b.build();
  }

  static void checkCommon(Served s) {
    assertEquals(java.util.Set.of("r1", "r2"), s.records().keySet(), s.toString());
    assertTrue(s.stats().contains("\"org.apache.catalina.connector.CoyoteAdapter\""), s.stats());
    assertTrue(s.stats().matches("(?s)\\{\"requests\":3,\"recorded\":2,.*"), "3 requests, 2 with the header: " + s.stats());
    for (AgentTest.Rec r : s.records().values()) {
      assertTrue(r.serviceNs() >= 100 * MS, "service() waited for a 100 ms task: " + r);
      assertNotNull(r.webWaitNs(), "served inside an executor task: " + r);
      assertEquals(1, r.tasks().size(), r.toString());
      AgentTest.Task t = r.tasks().get(0);
      assertEquals("ThreadPoolExecutor", t.executor());
      assertTrue(t.runNs() >= 100 * MS, t.toString());
      assertTrue(t.waitNs() < 100 * MS, "the servlet's pool has 2 threads: " + t);
    }
  }

  @Test
  void platformRequestThreadsQueueBehindMaxThreads() throws Exception {
    Served s = serve("platform");
    assertEquals(List.of("platform", "platform"), s.bodies());
    checkCommon(s);
    assertTrue(s.stats().contains("\"org.apache.tomcat.util.threads.ThreadPoolExecutor\""), s.stats());
    long maxWait = s.records().values().stream().mapToLong(AgentTest.Rec::webWaitNs).max().orElseThrow();
    long minWait = s.records().values().stream().mapToLong(AgentTest.Rec::webWaitNs).min().orElseThrow();
    assertTrue(maxWait >= 80 * MS, "with maxThreads=1 the second request waits for the first (~100 ms): " + s.records());
    assertTrue(minWait < 80 * MS, s.records().toString());
  }

  @Test
  void virtualRequestThreads() throws Exception {
    Served s = serve("virtual");
    assertEquals(List.of("virtual", "virtual"), s.bodies());
    checkCommon(s);
    assertTrue(s.stats().contains("\"org.apache.tomcat.util.threads.VirtualThreadExecutor\""), s.stats());
    for (AgentTest.Rec r : s.records().values()) assertTrue(r.webWaitNs() < 80 * MS, "no queue on virtual threads: " + r);
  }
}
