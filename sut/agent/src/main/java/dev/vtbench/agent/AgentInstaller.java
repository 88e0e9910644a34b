package dev.vtbench.agent;

import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.vtbench.agent.advice.ServiceAdvice;
import dev.vtbench.agent.advice.WrapCallableAdvice;
import dev.vtbench.agent.advice.WrapRunnableAdvice;
import dev.vtbench.agent.boot.Recorder;
import dev.vtbench.agent.boot.RequestRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicReference;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the transformations (after {@link Agent} put dev.vtbench.agent.boot on the bootstrap path) and
 * starts the HTTP side channel. Loaded by the application class loader, like the shaded Byte Buddy.
 */
public final class AgentInstaller {
  private AgentInstaller() {}

  /** names of the classes actually transformed (reported by /stats) */
  static final Set<String> INSTRUMENTED = new ConcurrentSkipListSet<>();

  /** Parses "port=<p>,header=<name>" (both optional; port 0 = any free port). */
  static Map<String, String> parseArgs(String args) {
    Map<String, String> m = new java.util.HashMap<>();
    m.put("port", "0");
    m.put("header", "x-vtbench-id");
    if (args == null || args.isBlank()) return m;
    for (String kv : args.split(",")) {
      int eq = kv.indexOf('=');
      if (eq <= 0) throw new IllegalArgumentException("agent argument '" + kv + "' is not key=value (expected port=<p>[,header=<name>])");
      String k = kv.substring(0, eq).trim();
      if (!k.equals("port") && !k.equals("header")) throw new IllegalArgumentException("unknown agent argument '" + k + "' (expected port, header)");
      m.put(k, kv.substring(eq + 1).trim());
    }
    return m;
  }

  public static void install(String args, Instrumentation inst) throws Exception {
    Map<String, String> a = parseArgs(args);
    Recorder.setHeader(a.get("header"));
    if (Recorder.class.getClassLoader() != null) {
      throw new IllegalStateException("dev.vtbench.agent.boot.Recorder was loaded by " + Recorder.class.getClassLoader() + ", not the bootstrap loader");
    }
    // advice inlined into java.base calls Recorder: java.base must read the bootstrap loader's unnamed module
    Module javaBase = Object.class.getModule();
    Module boot = Recorder.class.getModule();
    if (!javaBase.canRead(boot)) {
      inst.redefineModule(javaBase, Set.of(boot), Map.of(), Map.of(), Set.of(), Map.of());
    }

    ElementMatcher.Junction<MethodDescription> executeRunnable = named("execute").and(takesArguments(Runnable.class));
    AgentBuilder builder = new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
        .with(AgentBuilder.TypeStrategy.Default.REDEFINE)
        .ignore(nameStartsWith("dev.vtbench.agent.").or(nameStartsWith("net.bytebuddy.")).or(isSynthetic()).or(skipped()))
        .with(new Listener())
        // java.util.concurrent.ThreadPoolExecutor (not ScheduledThreadPoolExecutor: its execute does not call this one)
        .type(named("java.util.concurrent.ThreadPoolExecutor"))
        .transform(advice(WrapRunnableAdvice.class, executeRunnable))
        // Tomcat 10/11's own copy of ThreadPoolExecutor (platform request threads)
        .type(named("org.apache.tomcat.util.threads.ThreadPoolExecutor"))
        .transform(advice(WrapRunnableAdvice.class, executeRunnable))
        // Tomcat's executor for virtual request threads
        .type(named("org.apache.tomcat.util.threads.VirtualThreadExecutor"))
        .transform(advice(WrapRunnableAdvice.class, executeRunnable))
        // Executors.newVirtualThreadPerTaskExecutor()/newThreadPerTaskExecutor: execute and invokeAny go through
        // the private start(Runnable); submit(Runnable) and invokeAll through submit(Callable)
        .type(named("java.util.concurrent.ThreadPerTaskExecutor"))
        .transform(advice(WrapRunnableAdvice.class, named("start").and(takesArguments(Runnable.class))))
        .transform(advice(WrapCallableAdvice.class, named("submit").and(takesArguments(Callable.class))))
        // Spring's @Async default with virtual threads (and its concurrency limit, which blocks the caller):
        // execute(Runnable) and execute(Runnable, long) (submit goes through the latter); the first one reached
        // wraps. Not doExecute: with a concurrency limit Spring hands it a new TaskTrackingRunnable around the
        // task, which would be timed a second time.
        .type(named("org.springframework.core.task.SimpleAsyncTaskExecutor"))
        .transform(advice(WrapRunnableAdvice.class, named("execute").and(takesArgument(0, Runnable.class))))
        // Tomcat starts serving a request here (platform or virtual request thread)
        .type(named("org.apache.catalina.connector.CoyoteAdapter"))
        .transform(advice(ServiceAdvice.class, named("service").and(takesArguments(2))
            .and(takesArgument(0, named("org.apache.coyote.Request")))));
    builder.installOn(inst);

    int port = Integer.parseInt(a.get("port"));
    HttpServer server = startServer(port);
    int bound = server.getAddress().getPort();
    System.setProperty("vtbench.agent.port", Integer.toString(bound));
    System.err.println("vtbench-agent: side channel on http://127.0.0.1:" + bound + " (GET /records, GET /stats); classes are instrumented as they load (/stats lists them)");
  }

  /** -Dvtbench.agent.skip=<class name>[,...]: classes left uninstrumented (to measure or rule out one transformation). */
  static ElementMatcher.Junction<TypeDescription> skipped() {
    ElementMatcher.Junction<TypeDescription> m = net.bytebuddy.matcher.ElementMatchers.none();
    String p = System.getProperty("vtbench.agent.skip", "");
    for (String n : p.split(",")) if (!n.isBlank()) m = m.or(named(n.trim()));
    return m;
  }

  private static AgentBuilder.Transformer advice(Class<?> adviceClass, ElementMatcher<? super MethodDescription> methods) {
    return (DynamicType.Builder<?> b, TypeDescription type, ClassLoader loader, JavaModule module, java.security.ProtectionDomain pd) ->
        b.visit(Advice.to(adviceClass).on(methods));
  }

  /** Records transformed class names; prints errors (a failed transformation leaves that class as it was). */
  static final class Listener extends AgentBuilder.Listener.Adapter {
    @Override
    public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded, DynamicType dynamicType) {
      INSTRUMENTED.add(type.getName());
    }

    @Override
    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable throwable) {
      System.err.println("vtbench-agent: could not instrument " + typeName + ": " + throwable);
    }
  }

  /** The side channel on 127.0.0.1:port; created from a daemon thread so that its dispatcher thread is a daemon too. */
  static HttpServer startServer(int port) throws Exception {
    AtomicReference<Object> result = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        s.createContext("/records", AgentInstaller::records);
        s.createContext("/stats", AgentInstaller::stats);
        s.setExecutor(null); // handlers run on the dispatcher thread: no pool of ours shows up as tasks
        s.start();
        result.set(s);
      } catch (Throwable e) {
        result.set(e);
      }
    }, "vtbench-agent-start");
    t.setDaemon(true);
    t.start();
    t.join();
    if (result.get() instanceof Throwable e) throw new IOException("vtbench-agent: cannot listen on 127.0.0.1:" + port, e);
    return (HttpServer) result.get();
  }

  /** GET /records: the buffered records as JSON lines, drained. */
  static void records(HttpExchange ex) throws IOException {
    try (ex) {
      if (!"GET".equals(ex.getRequestMethod())) {
        ex.sendResponseHeaders(405, -1);
        return;
      }
      ex.getResponseHeaders().set("Content-Type", "application/x-ndjson");
      ex.sendResponseHeaders(200, 0); // chunked
      OutputStream out = ex.getResponseBody();
      StringBuilder sb = new StringBuilder(64 * 1024);
      // drain at most what was buffered when the request came: a steady stream of new records cannot keep it open
      int n = Recorder.buffered();
      for (int i = 0; i < n; i++) {
        RequestRecord r = Recorder.poll();
        if (r == null) break;
        r.appendJson(sb);
        sb.append('\n');
        if (sb.length() > 60 * 1024) {
          out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
          sb.setLength(0);
        }
      }
      out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  /** GET /stats: {"requests":..,"recorded":..,"tasks":..,"dropped":..,"buffered":..,"instrumented":[..]}. */
  static void stats(HttpExchange ex) throws IOException {
    try (ex) {
      Json j = new Json().open();
      j.field("requests", Recorder.requests());
      j.field("recorded", Recorder.recorded());
      j.field("tasks", Recorder.tasks());
      j.field("dropped", Recorder.dropped());
      j.field("buffered", (long) Recorder.buffered());
      j.key("instrumented").openArray();
      for (String s : new TreeSet<>(INSTRUMENTED)) j.element().value(s);
      j.closeArray().close();
      byte[] body = (j + "\n").getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
    }
  }
}
