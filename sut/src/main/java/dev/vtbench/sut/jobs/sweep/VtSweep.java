package dev.vtbench.sut.jobs.sweep;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import jdk.management.VirtualThreadSchedulerMXBean;

/**
 * Study 003's sweep level, run inside one JVM: N virtual threads, started one by one, wait on a
 * start barrier, then each loops for D ms over one blocking operation and records its latency.
 *
 * <p>Operations ({@link Op}):
 * <ul>
 * <li>{@code sleep}: {@code Thread.sleep(L)}: the scheduler and its timer alone; latency − L is the
 * overshoot (scheduler lag).</li>
 * <li>{@code socket}: write one byte to a loopback TCP connection and block reading the answer of an
 * in-JVM echo server that answers after sleeping L ms on its own virtual thread per connection: real
 * socket I/O through the JDK's poller. Each level needs 2N file descriptors (both ends live in this
 * JVM) and N ephemeral ports of 127.0.0.1; a level beyond what the host allows is answered with
 * outcome {@code host-limit} and the limit, without starting a thread.</li>
 * </ul>
 *
 * <p>Measured over the window (barrier release → every thread ended; a thread starts no operation
 * after D, so the window is D plus at most one operation): completed operations per second (every
 * completed operation / the window; counting only operations that ended within D would drop the one
 * each thread has in flight at D, 1 of D/L for a sleep that never overshoots), latency mean/P50/P99/max/SD from a 1 %
 * log histogram ({@link LatencyHistogram}), the start rate (N / time to start N threads), GC time
 * from the {@link GarbageCollectorMXBean}s (the pause share counts only collectors whose name does
 * not contain "Concurrent" or "Cycles": G1's "Young"/"Old" and ZGC/Shenandoah "Pauses" beans are
 * stop-the-world pauses, the others are concurrent work), {@link VirtualThreadSchedulerMXBean}
 * samples every {@code sampleMs}, heap used (MemoryMXBean) and RSS (/proc/self/status VmRSS).
 *
 * <p>Failures are outcomes, not exceptions: an {@link OutOfMemoryError} while starting threads
 * ({@code oom}, also "unable to create native thread"), any other start failure
 * ({@code start-failed}), threads still running at the deadline ({@code timeout}), operations that
 * threw ({@code op-errors}, first message kept). The caller reports whatever outcome it gets.
 */
public final class VtSweep {

    /** The blocking operation of a sweep. */
    public enum Op {
        SLEEP, SOCKET;

        public String wireName() {
            return name().toLowerCase();
        }

        public static Op parse(String s) {
            for (Op o : values()) {
                if (o.wireName().equals(s)) {
                    return o;
                }
            }
            throw new IllegalArgumentException("op must be one of sleep, socket; got " + s);
        }
    }

    /** A level's parameters: op, N threads, window D ms, blocking time L ms, deadline ms, sampling ms. */
    public record Params(Op op, int threads, long durationMs, long sleepMs, long timeoutMs, long sampleMs) {
    }

    /**
     * One sample of the scheduler and memory, {@code tMs} after the barrier released. The scheduler
     * fields are null when {@code jdk.management.VirtualThreadSchedulerMXBean} is unavailable.
     */
    public record SchedulerSample(double tMs, Integer parallelism, Integer poolSize, Integer mountedVirtualThreads,
            Long queuedVirtualThreads, long heapUsedBytes, Long rssBytes) {
    }

    /**
     * A level's answer. Times in ms, rates per s. Latency fields are null when no operation completed;
     * overshoot = latency − L (for sleep: the scheduler lag). {@code jitterPct} = SD of the latency / L
     * × 100 (null when L = 0). {@code gcPauseSharePct} = stop-the-world GC time in the window / window
     * × 100. Per-thread memory = (peak sampled − before starting) / N, null when not measurable.
     */
    public record Result(String job, String op, int threads, long durationMs, long sleepMs, long timeoutMs,
            String outcome, String reason, int startedThreads, double startMs, Double startRatePerS,
            double windowMs, long completedOps, long opsInWindow, Double throughputOpsPerS, Double latencyMeanMs,
            Double latencyP50Ms, Double latencyP99Ms, Double latencyMaxMs, Double latencySdMs,
            Double overshootP50Ms, Double overshootP99Ms, Double overshootMaxMs, Double jitterPct,
            long opErrors, String firstOpError, double gcPauseMs, Double gcPauseSharePct, double gcStartPhaseMs,
            Map<String, Long> gcTimeByCollectorMs, Map<String, Long> gcCountByCollector,
            long heapUsedBeforeBytes, Long heapUsedPeakBytes, Long rssBeforeBytes, Long rssPeakBytes,
            Double heapPerThreadBytes, Double rssPerThreadBytes, int availableProcessors, Long maxFileDescriptors,
            Long openFileDescriptorsBefore, Integer ephemeralPorts, Integer hostLimitThreads, long sampleIntervalMs,
            List<SchedulerSample> samples) {
    }

    private VtSweep() {
    }

    /** Whether a collector's time counts as a stop-the-world pause (see the class comment). */
    static boolean isPauseCollector(String name) {
        return !(name.contains("Concurrent") || name.contains("Cycles"));
    }

    static Map<String, long[]> gcSnapshot() {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            m.put(b.getName(), new long[] { Math.max(0, b.getCollectionTime()), Math.max(0, b.getCollectionCount()) });
        }
        return m;
    }

    static long pauseMsBetween(Map<String, long[]> a, Map<String, long[]> b) {
        long s = 0;
        for (var e : b.entrySet()) {
            if (isPauseCollector(e.getKey())) {
                s += e.getValue()[0] - a.getOrDefault(e.getKey(), new long[2])[0];
            }
        }
        return s;
    }

    /** VmRSS in bytes from /proc/self/status; null where unavailable. */
    static Long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024L;
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** Ports in /proc/sys/net/ipv4/ip_local_port_range (hi − lo + 1); null where unreadable. */
    static Integer ephemeralPorts() {
        try {
            String[] p = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+");
            return Integer.parseInt(p[1]) - Integer.parseInt(p[0]) + 1;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Descriptors kept free for the JVM, Tomcat and the harness's connections. */
    static final int FD_RESERVE = 512;

    /**
     * The most socket-op threads this host allows now: min((max fds − open fds − reserve) / 2,
     * ephemeral ports); null when neither is known.
     */
    static Integer socketHostLimit(Long maxFd, Long openFd, Integer ports) {
        Integer byFd = (maxFd == null || openFd == null) ? null : (int) Math.max(0, (maxFd - openFd - FD_RESERVE) / 2);
        if (byFd == null) {
            return ports;
        }
        return ports == null ? byFd : Math.min(byFd, ports);
    }

    static VirtualThreadSchedulerMXBean schedulerBean() {
        try {
            return ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Run one level. Never throws for a failure of the level: see {@link Result#outcome()}. */
    public static Result run(Params p) throws InterruptedException {
        var osBean = ManagementFactory.getOperatingSystemMXBean();
        Long maxFd = osBean instanceof com.sun.management.UnixOperatingSystemMXBean u ? u.getMaxFileDescriptorCount() : null;
        Long openFd = osBean instanceof com.sun.management.UnixOperatingSystemMXBean u ? u.getOpenFileDescriptorCount() : null;
        Integer ports = ephemeralPorts();
        Integer hostLimit = p.op() == Op.SOCKET ? socketHostLimit(maxFd, openFd, ports) : null;
        int cpus = Runtime.getRuntime().availableProcessors();
        long heapBefore = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        Long rssBefore = rssBytes();
        Builder out = new Builder(p, cpus, maxFd, openFd, ports, hostLimit, heapBefore, rssBefore);
        if (hostLimit != null && p.threads() > hostLimit) {
            return out.fail("host-limit", "the socket op needs 2 file descriptors and 1 ephemeral port per thread: "
                    + "this host allows " + hostLimit + " threads (max fds " + maxFd + ", open " + openFd
                    + ", reserve " + FD_RESERVE + ", ephemeral ports " + ports + ")");
        }
        EchoServer echo = null;
        if (p.op() == Op.SOCKET) {
            try {
                echo = new EchoServer(p.sleepMs(), p.threads());
            } catch (IOException e) {
                return out.fail("start-failed", "echo server: " + e);
            }
        }
        try {
            return runThreads(p, out, echo);
        } finally {
            if (echo != null) {
                echo.close();
            }
        }
    }

    private static Result runThreads(Params p, Builder out, EchoServer echo) throws InterruptedException {
        int n = p.threads();
        LatencyHistogram hist = new LatencyHistogram();
        LongAdder opsInWindow = new LongAdder();
        LongAdder opErrors = new LongAdder();
        AtomicReference<String> firstError = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(n);
        long[] deadline = new long[1];
        volatileAbort.set(false);
        Map<String, long[]> gcStart0 = gcSnapshot();
        Runnable body = () -> {
            Socket s = null;
            try {
                if (echo != null) {
                    s = echo.connect();
                }
                ready.countDown();
                go.await();
                long end = deadline[0];
                byte[] one = new byte[1];
                while (!volatileAbort.get()) {
                    long t0 = System.nanoTime();
                    if (t0 >= end) {
                        break;
                    }
                    if (s == null) {
                        Thread.sleep(p.sleepMs());
                    } else {
                        OutputStream o = s.getOutputStream();
                        o.write(1);
                        o.flush();
                        if (s.getInputStream().read(one) != 1) {
                            throw new IOException("echo server closed the connection");
                        }
                    }
                    long t1 = System.nanoTime();
                    hist.recordNanos(t1 - t0);
                    if (t1 <= end) {
                        opsInWindow.increment();
                    }
                }
            } catch (Throwable t) {
                opErrors.increment();
                firstError.compareAndSet(null, t.toString());
                if (ready.getCount() > 0) {
                    ready.countDown(); // a thread that failed before the barrier must not hold it
                }
            } finally {
                if (s != null) {
                    try {
                        s.close();
                    } catch (IOException e) {
                        // closing a loopback socket: nothing to report
                    }
                }
                done.countDown();
            }
        };
        long startT0 = System.nanoTime();
        int started = 0;
        String startFailure = null;
        String outcome = null;
        try {
            Thread.Builder.OfVirtual b = Thread.ofVirtual().name("sweep-", 0);
            for (int i = 0; i < n; i++) {
                b.start(body);
                started++;
            }
        } catch (OutOfMemoryError e) {
            outcome = "oom";
            startFailure = e.toString();
        } catch (Throwable e) {
            outcome = "start-failed";
            startFailure = e.toString();
        }
        if (outcome != null) {
            volatileAbort.set(true);
            for (int i = started; i < n; i++) {
                ready.countDown();
                done.countDown();
            }
        }
        long startedAt = System.nanoTime();
        double startMs = (startedAt - startT0) / 1e6;
        // the barrier: every thread is started (and for the socket op connected)
        boolean allReady = ready.await(Math.max(1, p.timeoutMs()), TimeUnit.MILLISECONDS);
        double readyMs = (System.nanoTime() - startT0) / 1e6;
        Map<String, long[]> gc0 = gcSnapshot();
        long gcStartPhase = pauseMsBetween(gcStart0, gc0);
        Sampler sampler = new Sampler(p.sampleMs());
        long goNanos = System.nanoTime();
        deadline[0] = goNanos + p.durationMs() * 1_000_000L;
        if (!allReady) {
            volatileAbort.set(true);
        }
        sampler.start(goNanos);
        go.countDown();
        boolean allDone = done.await(Math.max(1, p.timeoutMs()), TimeUnit.MILLISECONDS);
        long endNanos = System.nanoTime();
        sampler.stop();
        if (!allDone) {
            volatileAbort.set(true);
        }
        Map<String, long[]> gc1 = gcSnapshot();
        double windowMs = (endNanos - goNanos) / 1e6;
        if (outcome == null && !allReady) {
            outcome = "timeout";
            startFailure = "only " + (n - ready.getCount()) + " of " + n + " threads reached the start barrier within "
                    + p.timeoutMs() + " ms";
        } else if (outcome == null && !allDone) {
            outcome = "timeout";
            startFailure = done.getCount() + " of " + n + " threads still running " + p.timeoutMs()
                    + " ms after the barrier";
        } else if (outcome == null && opErrors.sum() > 0) {
            outcome = "op-errors";
            startFailure = opErrors.sum() + " threads ended with an error; first: " + firstError.get();
        }
        return out.finish(outcome == null ? "ok" : outcome, startFailure, started, startMs, readyMs, windowMs, hist,
                opsInWindow.sum(), opErrors.sum(), firstError.get(), gc0, gc1, gcStartPhase, sampler.samples(),
                sampler.peakHeap, sampler.peakRss);
    }

    /** Set to make every sweep thread leave its loop (an aborted level). One level runs at a time. */
    private static final java.util.concurrent.atomic.AtomicBoolean volatileAbort = new java.util.concurrent.atomic.AtomicBoolean();

    /** Samples the scheduler and memory on a platform daemon thread (never on a carrier). */
    private static final class Sampler {
        private final long intervalMs;
        private final ConcurrentLinkedQueue<SchedulerSample> samples = new ConcurrentLinkedQueue<>();
        private final VirtualThreadSchedulerMXBean vt = schedulerBean();
        private volatile boolean running = true;
        private Thread thread;
        volatile long peakHeap = 0;
        volatile Long peakRss = null;

        Sampler(long intervalMs) {
            this.intervalMs = Math.max(10, intervalMs);
        }

        void start(long goNanos) {
            thread = Thread.ofPlatform().daemon().name("sweep-sampler").start(() -> {
                while (running) {
                    sample(goNanos);
                    try {
                        Thread.sleep(intervalMs);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        private void sample(long goNanos) {
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            Long rss = rssBytes();
            peakHeap = Math.max(peakHeap, heap);
            if (rss != null) {
                peakRss = peakRss == null ? rss : Math.max(peakRss, rss);
            }
            samples.add(new SchedulerSample((System.nanoTime() - goNanos) / 1e6,
                    vt == null ? null : vt.getParallelism(), vt == null ? null : vt.getPoolSize(),
                    vt == null ? null : vt.getMountedVirtualThreadCount(),
                    vt == null ? null : vt.getQueuedVirtualThreadCount(), heap, rss));
        }

        void stop() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join(5_000);
        }

        List<SchedulerSample> samples() {
            return new ArrayList<>(samples);
        }
    }

    /** Collects the fixed facts of a level and builds its {@link Result}. */
    private record Builder(Params p, int cpus, Long maxFd, Long openFd, Integer ports, Integer hostLimit,
            long heapBefore, Long rssBefore) {

        Result fail(String outcome, String reason) {
            return new Result("vt-sweep", p.op().wireName(), p.threads(), p.durationMs(), p.sleepMs(), p.timeoutMs(),
                    outcome, reason, 0, 0, null, 0, 0, 0, null, null, null, null, null, null, null, null, null, null,
                    0, null, 0, null, 0, Map.of(), Map.of(), heapBefore, null, rssBefore, null, null, null, cpus,
                    maxFd, openFd, ports, hostLimit, p.sampleMs(), List.of());
        }

        Result finish(String outcome, String reason, int started, double startMs, double readyMs, double windowMs,
                LatencyHistogram h, long opsInWindow, long opErrors, String firstError, Map<String, long[]> gc0,
                Map<String, long[]> gc1, long gcStartPhase, List<SchedulerSample> samples, long peakHeap,
                Long peakRss) {
            double L = p.sleepMs();
            Double p50 = h.quantileMs(0.50);
            Double p99 = h.quantileMs(0.99);
            Double max = h.maxMs();
            Double sd = h.stdDevMs();
            long gcPause = pauseMsBetween(gc0, gc1);
            Map<String, Long> byName = new LinkedHashMap<>();
            Map<String, Long> countByName = new LinkedHashMap<>();
            for (var e : gc1.entrySet()) {
                long[] a = gc0.getOrDefault(e.getKey(), new long[2]);
                byName.put(e.getKey(), e.getValue()[0] - a[0]);
                countByName.put(e.getKey(), e.getValue()[1] - a[1]);
            }
            int n = p.threads();
            boolean ok = "ok".equals(outcome);
            return new Result("vt-sweep", p.op().wireName(), n, p.durationMs(), p.sleepMs(), p.timeoutMs(), outcome,
                    reason, started, startMs, startMs > 0 && started > 0 ? started / (startMs / 1000.0) : null,
                    windowMs, h.count(), opsInWindow,
                    ok && windowMs > 0 ? h.count() / (windowMs / 1000.0) : null, h.meanMs(), p50, p99,
                    max, sd, p50 == null ? null : p50 - L, p99 == null ? null : p99 - L,
                    max == null ? null : max - L, sd == null || L <= 0 ? null : sd / L * 100.0, opErrors, firstError,
                    gcPause, windowMs > 0 ? gcPause / windowMs * 100.0 : null, gcStartPhase, byName, countByName,
                    heapBefore, samples.isEmpty() ? null : peakHeap, rssBefore, peakRss,
                    samples.isEmpty() || started == 0 ? null : (peakHeap - heapBefore) / (double) started,
                    peakRss == null || rssBefore == null || started == 0 ? null : (peakRss - rssBefore) / (double) started,
                    cpus, maxFd, openFd, ports, hostLimit, p.sampleMs(), samples);
        }
    }

    /**
     * The socket op's server: one virtual thread accepts, one virtual thread per connection reads a
     * byte, sleeps L ms, writes it back. Listens on 127.0.0.1, an ephemeral port.
     */
    static final class EchoServer implements AutoCloseable {
        private final ServerSocket server;
        private final long delayMs;
        private final Thread acceptor;
        private final ConcurrentLinkedQueue<Socket> accepted = new ConcurrentLinkedQueue<>();

        EchoServer(long delayMs, int backlog) throws IOException {
            this.delayMs = delayMs;
            this.server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Math.max(50, backlog));
            this.acceptor = Thread.ofVirtual().name("sweep-echo-accept").start(this::acceptLoop);
        }

        private void acceptLoop() {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    accepted.add(s);
                    Thread.ofVirtual().name("sweep-echo").start(() -> serve(s));
                } catch (IOException e) {
                    return; // closed
                }
            }
        }

        private void serve(Socket s) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                int b;
                while ((b = in.read()) >= 0) {
                    if (delayMs > 0) {
                        Thread.sleep(delayMs);
                    }
                    out.write(b);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the client closed, or the level ended
            }
        }

        Socket connect() throws IOException {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 60_000);
            return s;
        }

        @Override
        public void close() {
            try {
                server.close();
            } catch (IOException e) {
                // nothing to report
            }
            for (Socket s : accepted) {
                try {
                    s.close();
                } catch (IOException e) {
                    // nothing to report
                }
            }
            acceptor.interrupt();
        }
    }
}
