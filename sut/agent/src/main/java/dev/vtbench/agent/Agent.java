package dev.vtbench.agent;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * The -javaagent entry point ({@code -javaagent:vtbench-agent.jar=port=<p>[,header=x-vtbench-id]}).
 *
 * <p>This class references only JDK classes: before anything loads {@code dev.vtbench.agent.boot.*} it
 * copies that package from the agent jar into a temporary jar and appends it to the bootstrap class
 * loader's search path, so that the one copy of the recorder is visible from java.base (where
 * ThreadPoolExecutor lives) and from every application class loader (which delegate to the bootstrap
 * loader first). Then {@link AgentInstaller} installs the Byte Buddy transformations and the HTTP side channel.
 * A failure is printed to stderr and leaves the application running uninstrumented.
 */
public final class Agent {
  static final String BOOT_PACKAGE = "dev/vtbench/agent/boot/";

  private Agent() {}

  public static void premain(String args, Instrumentation inst) {
    agentmain(args, inst);
  }

  public static void agentmain(String args, Instrumentation inst) {
    try {
      // Byte Buddy's "safe mode" (no sun.misc.Unsafe; the agent inlines advice and injects no classes). The
      // shade plugin relocates this literal with the classes, so it names our shaded copy's property only.
      if (System.getProperty("net.bytebuddy.safe") == null) System.setProperty("net.bytebuddy.safe", "true");
      File bootJar = extractBootJar();
      inst.appendToBootstrapClassLoaderSearch(new JarFile(bootJar));
      Class.forName("dev.vtbench.agent.AgentInstaller")
          .getMethod("install", String.class, Instrumentation.class)
          .invoke(null, args, inst);
    } catch (Throwable t) {
      System.err.println("vtbench-agent: NOT installed: " + t);
      t.printStackTrace();
    }
  }

  /** Copies the entries under {@link #BOOT_PACKAGE} of this agent's jar into a new temporary jar (deleted on exit). */
  static File extractBootJar() throws IOException, URISyntaxException {
    Path self = Path.of(Agent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    File out = Files.createTempFile("vtbench-agent-boot-", ".jar").toFile();
    out.deleteOnExit();
    int n = 0;
    try (JarFile jar = new JarFile(self.toFile()); JarOutputStream jos = new JarOutputStream(new FileOutputStream(out))) {
      Enumeration<JarEntry> en = jar.entries();
      while (en.hasMoreElements()) {
        JarEntry e = en.nextElement();
        if (e.isDirectory() || !e.getName().startsWith(BOOT_PACKAGE)) continue;
        jos.putNextEntry(new JarEntry(e.getName()));
        try (InputStream in = jar.getInputStream(e)) {
          in.transferTo(jos);
        }
        jos.closeEntry();
        n++;
      }
    }
    if (n == 0) throw new IOException("no " + BOOT_PACKAGE + " classes in " + self);
    return out;
  }
}
