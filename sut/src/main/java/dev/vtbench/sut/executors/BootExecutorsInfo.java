package dev.vtbench.sut.executors;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Component;

/**
 * What Spring Boot's own executors actually are in this JVM (study 004), read back from the live
 * beans and the running Tomcat rather than from properties: the {@code applicationTaskExecutor}
 * bean's class and limits, the kind and name of the thread a probe task ran on, and Tomcat's
 * connector executor. On virtual threads Tomcat's {@code maxThreads} reads −1 (its executor is not
 * a thread pool): that is reported as {@code tomcatMaxThreads = null} with
 * {@code tomcatVirtualThreads = true}, never as a stale configured 200.
 */
@Component
public class BootExecutorsInfo {

    /**
     * @param asyncExecutorClass    class of the {@code applicationTaskExecutor} bean
     * @param asyncCorePoolSize     ThreadPoolTaskExecutor only, else null
     * @param asyncMaxPoolSize      ThreadPoolTaskExecutor only, else null
     * @param asyncQueueCapacity    ThreadPoolTaskExecutor only (Integer.MAX_VALUE = unbounded), else null
     * @param asyncConcurrencyLimit SimpleAsyncTaskExecutor only (−1 = unbounded), else null
     * @param asyncProbeThreadName  the name of the thread a probe task ran on
     * @param asyncProbeVirtual     {@link Thread#isVirtual()} of that thread
     * @param springThreadsVirtual  the property {@code spring.threads.virtual.enabled} as set
     * @param tomcatExecutorClass   class of the Tomcat connector's executor
     * @param tomcatVirtualThreads  the connector's executor runs each request on a new virtual thread
     * @param tomcatMaxThreads      the protocol handler's maxThreads in effect; null when it reads −1 (virtual threads)
     */
    public record Info(String asyncExecutorClass, Integer asyncCorePoolSize, Integer asyncMaxPoolSize,
            Integer asyncQueueCapacity, Integer asyncConcurrencyLimit, String asyncProbeThreadName,
            boolean asyncProbeVirtual, boolean springThreadsVirtual, String tomcatExecutorClass,
            Boolean tomcatVirtualThreads, Integer tomcatMaxThreads) {
    }

    private final Executor async;
    private final ApplicationContext context;
    private final Environment env;
    private volatile Info cached;

    public BootExecutorsInfo(@Qualifier(BootAsyncConfig.APPLICATION_TASK_EXECUTOR) Executor async,
            ApplicationContext context, Environment env) {
        this.async = async;
        this.context = context;
        this.env = env;
    }

    /** Boot's {@code applicationTaskExecutor} bean. */
    public Executor asyncExecutor() {
        return async;
    }

    /**
     * Read once, on the first call (the harness's first {@code /bench/info}, after Tomcat started and
     * before any job), then cached: a later probe task would queue behind a running burst on the pool.
     */
    public synchronized Info read() {
        Info i = cached;
        if (i == null) {
            i = readNow();
            cached = i;
        }
        return i;
    }

    private Info readNow() {
        Integer core = null;
        Integer max = null;
        Integer queue = null;
        Integer limit = null;
        if (async instanceof ThreadPoolTaskExecutor t) {
            core = t.getCorePoolSize();
            max = t.getMaxPoolSize();
            queue = t.getQueueCapacity();
        } else if (async instanceof SimpleAsyncTaskExecutor s) {
            limit = s.getConcurrencyLimit();
        }
        Thread[] seen = new Thread[1];
        try {
            CompletableFuture.runAsync(() -> seen[0] = Thread.currentThread(), async).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the applicationTaskExecutor did not run a probe task in 10 s", e);
        }
        String tomcatClass = null;
        Boolean tomcatVirtual = null;
        Integer tomcatMax = null;
        WebServer ws = context instanceof WebServerApplicationContext w ? w.getWebServer() : null;
        if (ws instanceof TomcatWebServer tws) {
            ProtocolHandler ph = tws.getTomcat().getConnector().getProtocolHandler();
            Executor ex = ph.getExecutor();
            if (ex != null) {
                tomcatClass = ex.getClass().getName();
                tomcatVirtual = ex instanceof org.apache.tomcat.util.threads.VirtualThreadExecutor;
            }
            if (ph instanceof AbstractProtocol<?> ap) {
                int m = ap.getMaxThreads();
                tomcatMax = m < 0 ? null : m;
            }
        }
        return new Info(async.getClass().getName(), core, max, queue, limit, seen[0].getName(), seen[0].isVirtual(),
                env.getProperty("spring.threads.virtual.enabled", Boolean.class, false), tomcatClass, tomcatVirtual,
                tomcatMax);
    }
}
