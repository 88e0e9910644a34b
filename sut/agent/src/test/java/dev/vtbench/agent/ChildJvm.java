package dev.vtbench.agent;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Helpers to start child JVMs from tests with the same JDK that runs the tests. */
final class ChildJvm {
  private ChildJvm() {}

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  static Path agentJar() {
    Path p = Path.of(System.getProperty("vtbench.agent.jar", "target/vtbench-agent.jar")).toAbsolutePath();
    if (!Files.exists(p)) throw new IllegalStateException(p + " does not exist: run `mvn package` (the tests run after the shade step)");
    return p;
  }

  static String testClasses() {
    return Path.of("target", "test-classes").toAbsolutePath().toString();
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  static List<String> jmxFlags(int port) {
    List<String> l = new ArrayList<>();
    l.add("-Dcom.sun.management.jmxremote.port=" + port);
    l.add("-Dcom.sun.management.jmxremote.rmi.port=" + port);
    l.add("-Dcom.sun.management.jmxremote.authenticate=false");
    l.add("-Dcom.sun.management.jmxremote.ssl=false");
    l.add("-Dcom.sun.management.jmxremote.host=127.0.0.1");
    l.add("-Djava.rmi.server.hostname=127.0.0.1");
    return l;
  }
}
