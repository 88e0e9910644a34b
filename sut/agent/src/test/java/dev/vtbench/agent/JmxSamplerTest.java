package dev.vtbench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class JmxSamplerTest {

  @Test
  void redactsSecretKeysOnly() {
    assertEquals("-Dspring.datasource.password=***", JmxSampler.redact("-Dspring.datasource.password=hunter2"));
    assertEquals("-Dmy.API_KEY=***", JmxSampler.redact("-Dmy.API_KEY=abc"));
    assertEquals("-Dopenai.apikey=***", JmxSampler.redact("-Dopenai.apikey=abc"));
    assertEquals("-DauthToken=***", JmxSampler.redact("-DauthToken=x=y"));
    assertEquals("-Dcom.sun.management.jmxremote.port=9010", JmxSampler.redact("-Dcom.sun.management.jmxremote.port=9010"));
    assertEquals("-Xmx512m", JmxSampler.redact("-Xmx512m"));
    // only the key counts: a value that looks secret is kept
    assertEquals("-Dmode=token", JmxSampler.redact("-Dmode=token"));
  }

  @Test
  void hikariPoolNameFromTypeKey() {
    assertEquals("HikariPool-1", JmxSampler.poolName("Pool (HikariPool-1)"));
    assertEquals("my pool", JmxSampler.poolName("PoolConfig (my pool)"));
    assertNull(JmxSampler.poolName("Other"));
  }

  @Test
  void jsonEscapesAndNesting() {
    Json j = new Json().open().field("a", "x\"\n\u0001").key("b").openArray();
    j.element().open().field("c", 1L).field("d", (Number) null).close();
    j.element().open().field("e", Double.NaN).close();
    j.closeArray().key("f").nullValue().close();
    assertEquals("{\"a\":\"x\\\"\\n\\u0001\",\"b\":[{\"c\":1,\"d\":null},{\"e\":null}],\"f\":null}", j.toString());
  }

  /** Samples a real child JVM over JMX, then kills it: the sampler must say so and exit 0. */
  @Test
  void samplesAChildJvmAndEndsWhenItDisconnects() throws Exception {
    int port = ChildJvm.freePort();
    List<String> cmd = new ArrayList<>(List.of(ChildJvm.java()));
    cmd.addAll(ChildJvm.jmxFlags(port));
    cmd.add("-Dsome.secret=hunter2");
    cmd.addAll(List.of("-cp", ChildJvm.testClasses(), "dev.vtbench.agent.SleepyMain", "30000"));
    Process target = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    Process sampler = null;
    try {
      // the sampler starts first and must wait (retry) until the target listens
      sampler = new ProcessBuilder(ChildJvm.java(), "-cp", ChildJvm.agentJar().toString(), "dev.vtbench.agent.JmxSampler",
          "--jmx", "127.0.0.1:" + port, "--interval-ms", "100", "--pid", Long.toString(target.pid()))
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader r = new BufferedReader(new InputStreamReader(sampler.getInputStream(), StandardCharsets.UTF_8));
      String info = r.readLine();
      assertNotNull(info);
      assertTrue(info.startsWith("{\"info\":{\"vmVendor\":"), info);
      assertTrue(info.contains("\"javaVersion\":\"" + System.getProperty("java.version") + "\""), info);
      assertTrue(info.contains("\"pid\":" + target.pid() + ","), info);
      assertTrue(info.contains("\"-Dsome.secret=***\""), info);
      assertTrue(!info.contains("hunter2"), info);

      List<String> samples = new ArrayList<>();
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1000);
      while (System.nanoTime() < until || samples.size() < 2) {
        String l = r.readLine();
        assertNotNull(l, "sampler ended early after " + samples);
        samples.add(l);
      }
      Pattern shape = Pattern.compile("^\\{\"t\":(\\d+),\"cpuNs\":(\\d+),\"cpuLoad\":[^,]+,\"heapUsed\":\\d+,\"heapCommitted\":\\d+,"
          + "\"rss\":(\\d+),\"threads\":(\\d+),\"gcCount\":\\d+,\"gcTimeMs\":\\d+,"
          + "\"vt\":\\{\"parallelism\":\\d+,\"poolSize\":\\d+,\"mounted\":\\d+,\"queued\":\\d+\\},"
          + "\"tomcat\":\\[\\],\"hikari\":\\[\\],\"executors\":\\[\\]\\}$");
      long prevT = 0;
      for (String s : samples) {
        Matcher m = shape.matcher(s);
        assertTrue(m.matches(), s);
        assertTrue(Long.parseLong(m.group(2)) > 0, "cpuNs > 0: " + s);
        assertTrue(Long.parseLong(m.group(3)) > 1_000_000, "rss of a JVM is > 1 MB: " + s);
        assertTrue(Long.parseLong(m.group(4)) > 3, s);
        long t = Long.parseLong(m.group(1));
        assertTrue(t > prevT, "time increases");
        prevT = t;
      }

      target.destroyForcibly();
      target.waitFor(10, TimeUnit.SECONDS);
      String last = null;
      for (String l; (l = r.readLine()) != null; ) last = l;
      assertEquals("{\"end\":\"disconnected\"}", last);
      assertTrue(sampler.waitFor(10, TimeUnit.SECONDS));
      assertEquals(0, sampler.exitValue());
    } finally {
      target.destroyForcibly();
      if (sampler != null) sampler.destroyForcibly();
    }
  }

  /** A real embedded Tomcat (MBean registry on, as Tomcat has it by default) and a HikariCP pool: the tomcat and hikari parts of a sample. */
  @Test
  void samplesTomcatAndHikariMBeans() throws Exception {
    int port = ChildJvm.freePort();
    List<String> cmd = new ArrayList<>(List.of(ChildJvm.java()));
    cmd.addAll(ChildJvm.jmxFlags(port));
    cmd.addAll(List.of("-cp", TomcatAgentTest.childClassPath("org/apache/tomcat/", "com/zaxxer/", "com/h2database/", "org/slf4j/"),
        "dev.vtbench.agent.TomcatTarget", "platform", "hikari"));
    Process target = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    Process sampler = null;
    try {
      String started = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8)).readLine();
      assertNotNull(started);
      assertTrue(started.startsWith("PORT "), started);
      sampler = new ProcessBuilder(ChildJvm.java(), "-cp", ChildJvm.agentJar().toString(), "dev.vtbench.agent.JmxSampler",
          "--jmx", "127.0.0.1:" + port, "--interval-ms", "100").redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader r = new BufferedReader(new InputStreamReader(sampler.getInputStream(), StandardCharsets.UTF_8));
      assertTrue(r.readLine().startsWith("{\"info\":"));
      String sample = r.readLine();
      assertNotNull(sample);
      assertTrue(sample.contains("\"rss\":null,"), "no --pid, no rss: " + sample);
      Matcher tc = Pattern.compile("\"tomcat\":\\[\\{\"name\":\"(http-nio-[^\"]+)\",\"busy\":(\\d+),\"threads\":(\\d+),\"max\":1,\"conns\":(\\d+),\"maxConns\":8192\\}\\]")
          .matcher(sample);
      assertTrue(tc.find(), "one connector, maxThreads=1, Tomcat's default 8192 connections: " + sample);
      assertTrue(sample.contains("\"hikari\":[{\"pool\":\"vtbench-pool\",\"active\":1,\"idle\":"), "one connection held: " + sample);
      assertTrue(sample.matches(".*\"hikari\":\\[\\{[^}]*\"pending\":0,\"total\":\\d+,\"max\":3\\}\\].*"), "max from PoolConfig: " + sample);
    } finally {
      target.destroyForcibly();
      if (sampler != null) sampler.destroyForcibly();
    }
  }

  /** Nothing listens: after --connect-timeout-ms one {"error":..} line and exit 2. */
  @Test
  void exitsTwoWhenTheTargetNeverAnswers() throws Exception {
    int port = ChildJvm.freePort();
    Process sampler = new ProcessBuilder(ChildJvm.java(), "-cp", ChildJvm.agentJar().toString(), "dev.vtbench.agent.JmxSampler",
        "--jmx", "127.0.0.1:" + port, "--connect-timeout-ms", "500").redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      String out = new String(sampler.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(sampler.waitFor(10, TimeUnit.SECONDS));
      assertEquals(2, sampler.exitValue());
      assertTrue(out.matches("^\\{\"error\":\"could not connect to service:jmx:rmi:///jndi/rmi://127\\.0\\.0\\.1:" + port + "/jmxrmi within 500 ms: .*\"\\}\n$"), out);
    } finally {
      sampler.destroyForcibly();
    }
  }

  /** Closing its stdin (EOF) ends the sampler with exit code 0, even while it still retries to connect. */
  @Test
  void exitsZeroOnStdinEof() throws Exception {
    int port = ChildJvm.freePort();
    Process sampler = new ProcessBuilder(ChildJvm.java(), "-cp", ChildJvm.agentJar().toString(), "dev.vtbench.agent.JmxSampler",
        "--jmx", "127.0.0.1:" + port).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      Thread.sleep(700);
      assertTrue(sampler.isAlive());
      sampler.getOutputStream().close();
      assertTrue(sampler.waitFor(10, TimeUnit.SECONDS));
      assertEquals(0, sampler.exitValue());
    } finally {
      sampler.destroyForcibly();
    }
  }

  /** SIGTERM (Process.destroy) ends the sampler with exit code 0. */
  @Test
  void exitsZeroOnSigterm() throws Exception {
    int port = ChildJvm.freePort(); // nothing listens: the sampler keeps retrying until terminated
    Process sampler = new ProcessBuilder(ChildJvm.java(), "-cp", ChildJvm.agentJar().toString(), "dev.vtbench.agent.JmxSampler",
        "--jmx", "127.0.0.1:" + port, "--interval-ms", "100").redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      Thread.sleep(700);
      assertTrue(sampler.isAlive());
      sampler.destroy();
      assertTrue(sampler.waitFor(10, TimeUnit.SECONDS));
      assertEquals(0, sampler.exitValue());
    } finally {
      sampler.destroyForcibly();
    }
  }
}
