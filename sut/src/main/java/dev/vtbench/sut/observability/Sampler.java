package dev.vtbench.sut.observability;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jdk.management.VirtualThreadSchedulerMXBean;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.executors.MeasuringExecutor;
import dev.vtbench.sut.scenarios.llm.LlmCallService;
import dev.vtbench.sut.scenarios.ws.WsPushService;

/**
 * Takes a {@link SutSample} every {@code bench.sampler.interval-ms} on its own platform thread
 * ({@code bench-sampler}) into a fixed-size ring buffer; the oldest ticks are overwritten.
 */
@Component
public class Sampler implements DisposableBean {

    private static final Path PROC_STATUS = Path.of("/proc/self/status");

    private final MeasuringExecutor executor;
    private final PinnedEventCounter pinned;
    private final LlmCallService llm;
    private final WsPushService ws;
    private final long intervalMs;
    private final SutSample[] ring;
    private long written; // guarded by this
    private final ScheduledExecutorService timer;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os;
    private final VirtualThreadSchedulerMXBean vtScheduler;

    public Sampler(MeasuringExecutor executor, PinnedEventCounter pinned, LlmCallService llm, WsPushService ws, BenchProperties props) {
        this.executor = executor;
        this.ws = ws;
        this.pinned = pinned;
        this.llm = llm;
        this.intervalMs = props.sampler().intervalMs();
        this.ring = new SutSample[props.sampler().capacity()];
        this.os = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean o ? o : null;
        this.vtScheduler = vtSchedulerBean();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-sampler");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::tick, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    public static VirtualThreadSchedulerMXBean vtSchedulerBean() {
        try {
            return ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    public long intervalMs() {
        return intervalMs;
    }

    void tick() {
        try {
            SutSample s = sampleNow();
            synchronized (this) {
                ring[(int) (written % ring.length)] = s;
                written++;
            }
        } catch (RuntimeException e) {
            // a failed tick must not stop the schedule
        }
    }

    public SutSample sampleNow() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        Double cpuLoad = null;
        Long cpuTime = null;
        if (os != null) {
            double load = os.getProcessCpuLoad();
            cpuLoad = load < 0 ? null : load;
            long t = os.getProcessCpuTime();
            cpuTime = t < 0 ? null : t;
        }
        return new SutSample(
                System.currentTimeMillis(),
                executor.active(),
                executor.queueSize(),
                executor.inFlight(),
                executor.completed(),
                threads.getThreadCount(),
                heap.getUsed(),
                heap.getCommitted(),
                rssBytes(),
                cpuLoad,
                cpuTime,
                vtScheduler == null ? null : vtScheduler.getParallelism(),
                vtScheduler == null ? null : vtScheduler.getPoolSize(),
                vtScheduler == null ? null : vtScheduler.getMountedVirtualThreadCount(),
                vtScheduler == null ? null : vtScheduler.getQueuedVirtualThreadCount(),
                pinned.total(),
                pinned.submitFailedTotal(),
                llm.upstreamErrorsTotal(),
                ws.sessionsOpen(),
                ws.messagesSent());
    }

    /** Samples with {@code tEpochMs > sinceEpochMs}, oldest first. */
    public synchronized List<SutSample> since(long sinceEpochMs) {
        List<SutSample> out = new ArrayList<>();
        long first = Math.max(0, written - ring.length);
        for (long i = first; i < written; i++) {
            SutSample s = ring[(int) (i % ring.length)];
            if (s.tEpochMs() > sinceEpochMs) {
                out.add(s);
            }
        }
        return out;
    }

    /** VmRSS from /proc/self/status in bytes; null where unavailable. */
    public static Long rssBytes() {
        try {
            for (String line : Files.readAllLines(PROC_STATUS)) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024L; // the kernel reports kB
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    @Override
    public void destroy() {
        timer.shutdownNow();
    }
}
