package dev.vtbench.agent;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * The child JVM of {@link TomcatAgentTest}: a real embedded Tomcat 11 on a free port, with platform
 * request threads (maxThreads=1, so a second concurrent request waits in Tomcat's queue) or virtual ones
 * (args[0] = "platform" | "virtual"). GET /?ms=N runs a task sleeping N ms on a 2-thread
 * ThreadPoolExecutor and waits for it. With args[1] = "hikari", also a HikariCP pool "vtbench-pool"
 * (in-memory H2, maximumPoolSize 3, MBeans registered) with one connection held open. Prints "PORT <port>"
 * when started.
 */
public final class TomcatTarget {
  static final ExecutorService POOL = Executors.newFixedThreadPool(2);

  static java.sql.Connection HELD;

  public static void main(String[] args) throws Exception {
    boolean virtual = args.length > 0 && args[0].equals("virtual");
    Tomcat tomcat = new Tomcat();
    String base = Files.createTempDirectory("vtbench-tomcat-").toString();
    tomcat.setBaseDir(base);
    Connector c = new Connector("HTTP/1.1");
    c.setPort(0);
    c.setProperty("address", "127.0.0.1");
    if (virtual) {
      c.setProperty("useVirtualThreads", "true");
    } else {
      c.setProperty("maxThreads", "1");
      c.setProperty("minSpareThreads", "1");
    }
    tomcat.setConnector(c);
    Context ctx = tomcat.addContext("", base);
    Tomcat.addServlet(ctx, "s", new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long ms = Long.parseLong(req.getParameter("ms") == null ? "0" : req.getParameter("ms"));
        try {
          POOL.submit(() -> {
            Thread.sleep(ms);
            return null;
          }).get();
        } catch (Exception e) {
          throw new IOException(e);
        }
        resp.setContentType("text/plain");
        resp.getWriter().write(Thread.currentThread().isVirtual() ? "virtual" : "platform");
      }
    });
    ctx.addServletMappingDecoded("/*", "s");
    if (args.length > 1 && args[1].equals("hikari")) {
      com.zaxxer.hikari.HikariConfig cfg = new com.zaxxer.hikari.HikariConfig();
      cfg.setJdbcUrl("jdbc:h2:mem:vtbench");
      cfg.setPoolName("vtbench-pool");
      cfg.setMaximumPoolSize(3);
      cfg.setMinimumIdle(2);
      cfg.setRegisterMbeans(true);
      HELD = new com.zaxxer.hikari.HikariDataSource(cfg).getConnection();
    }
    tomcat.start();
    System.out.println("PORT " + c.getLocalPort());
    System.out.flush();
    tomcat.getServer().await();
  }
}
