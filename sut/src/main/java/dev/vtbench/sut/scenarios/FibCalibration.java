package dev.vtbench.sut.scenarios;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.IntToLongFunction;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.config.BenchProperties;

/**
 * The n of {@code cpu-fib}'s fib(n), calibrated once at SUT start so that one call costs about
 * {@code bench.fib.target-cpu-ms} of thread CPU time on this host (the study used fib(40), "about 1 s",
 * on 8 cores). Measured on the starting (platform) thread with {@link ThreadMXBean#getCurrentThreadCpuTime()}
 * (it returns -1 on a virtual thread, so calls cannot be measured where they run), after a JIT warm-up
 * that runs until the cost of fib({@value #WARMUP_N}) stops falling ({@link #warmUp}): a fixed warm-up of
 * 50 × fib(20) was not enough while Spring was still starting — the C2 compiler threads were busy, fib
 * still ran as C1 code, and one JVM measured fib(35) at 119 ms of CPU where its cells then measured
 * 43–57 ms per request (seed-002 run 20261201-152237, cpu-pool-500), so the per-call bound was 2.6× too low.
 * n grows from {@value #START_N} until a call costs at least the target (one call per n); then n and
 * n − 1 are measured {@value #REPEATS} times each and the one whose best call is nearer the target on a
 * log scale is taken (each step costs about φ ≈ 1.618 times the last, so the chosen n costs within about
 * √φ ≈ 1.27× of the target); {@code cpuMsPerCall} is the median of its {@value #REPEATS} calls. Seen
 * here (2 shared cores, Temurin 25.0.3): n = 36 or 37 for 100 ms, single calls ±20 % apart between JVMs,
 * so the theory must use {@code cpuMsPerCall}, never the target. CPU time, not wall time, so a busy host does not
 * shift n, although frequency scaling and the other process's cache pressure still can.
 */
@Component
public class FibCalibration {

    /** Largest n a request may ask for: fib(45) is already seconds of CPU. */
    public static final int MAX_N = 45;
    static final int START_N = 15;
    static final int REPEATS = 3;
    /** The warm-up's probe: fib(27), about 0.5–1.5 ms of CPU once compiled. */
    static final int WARMUP_N = 27;
    /** The warm-up ends once this much CPU was spent without a new best ({@link #GAIN} faster than the last). */
    static final long WARMUP_PATIENCE_NS = 1_000_000_000L;
    /** ... or once this much CPU was spent in all. */
    static final long WARMUP_CAP_NS = 15_000_000_000L;
    /** A probe counts as a new best when it costs below this fraction of the best so far. */
    static final double GAIN = 0.97;

    /**
     * {@code /bench/info} {@code fib}: the calibrated n, the target and the measured CPU ms of one fib(n);
     * {@code warmupCpuMs}: the CPU the JIT warm-up spent before the calibration (0 where none ran).
     */
    public record Info(int n, long targetCpuMs, double cpuMsPerCall, double warmupCpuMs) {
    }

    private final Info info;

    /** @throws IllegalStateException when this JVM cannot measure thread CPU time */
    public FibCalibration(BenchProperties props) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("cpu-fib calibration needs thread CPU time, which this JVM does not support");
        }
        if (!mx.isThreadCpuTimeEnabled()) {
            mx.setThreadCpuTimeEnabled(true);
        }
        IntToLongFunction cpuNanosOf = n -> {
            long t0 = mx.getCurrentThreadCpuTime();
            fib(n);
            return mx.getCurrentThreadCpuTime() - t0;
        };
        long warmupNs = warmUp(cpuNanosOf);
        int fixedN = props.fib().n();
        Info measured = fixedN > 0 ? measure(fixedN, props.fib().targetCpuMs(), cpuNanosOf) : calibrate(props.fib().targetCpuMs(), cpuNanosOf);
        this.info = new Info(measured.n(), measured.targetCpuMs(), measured.cpuMsPerCall(), toMs(warmupNs));
    }

    /**
     * JIT warm-up until fib is compiled for good: calls fib({@value #WARMUP_N}) until
     * {@link #WARMUP_PATIENCE_NS} of CPU passed without a call {@link #GAIN}× faster than the best so far
     * (interpreted → C1 → C2 each cut the cost by 2× or more, so a tier change resets the patience), or
     * {@link #WARMUP_CAP_NS} in all.
     * @param cpuNanosOf runs fib(n) once and returns its cost, ns
     * @return the CPU spent, ns
     */
    static long warmUp(IntToLongFunction cpuNanosOf) {
        long best = Long.MAX_VALUE;
        long spent = 0;
        long sinceBest = 0;
        while (spent < WARMUP_CAP_NS && sinceBest < WARMUP_PATIENCE_NS) {
            long t = Math.max(1, cpuNanosOf.applyAsLong(WARMUP_N));
            spent += t;
            if (t < best * GAIN) {
                best = t;
                sinceBest = 0;
            } else {
                sinceBest += t;
            }
        }
        return spent;
    }

    /**
     * The calibration rule above, over any clock ({@code cpuNanosOf(n)} runs fib(n) once and returns
     * its cost in ns).
     */
    static Info calibrate(long targetCpuMs, IntToLongFunction cpuNanosOf) {
        long target = targetCpuMs * 1_000_000L;
        int n = START_N;
        long cost = cpuNanosOf.applyAsLong(n);
        while (cost < target && n < MAX_N) {
            n++;
            cost = cpuNanosOf.applyAsLong(n);
        }
        long[] samples = repeat(n, cpuNanosOf);
        if (n > START_N && cost >= target) {
            // the growth step measured each n once; decide between n - 1 and n on the best of three each
            long[] below = repeat(n - 1, cpuNanosOf);
            if (Math.abs(Math.log((double) Math.max(below[0], 1) / target)) < Math.abs(Math.log((double) samples[0] / target))) {
                n--;
                samples = below;
            }
        }
        return new Info(n, targetCpuMs, toMs(samples[REPEATS / 2]), 0);
    }

    /** A given n ({@code bench.fib.n}): no search, its CPU per call is the median of {@value #REPEATS} calls. */
    static Info measure(int n, long targetCpuMs, IntToLongFunction cpuNanosOf) {
        long[] samples = repeat(n, cpuNanosOf);
        return new Info(n, targetCpuMs, toMs(samples[REPEATS / 2]), 0);
    }

    /** ns as ms, rounded to the µs. */
    private static double toMs(long ns) {
        return Math.round(ns / 1_000.0) / 1_000.0;
    }

    /** {@value #REPEATS} measurements of fib(n), sorted (so [0] is the best, [REPEATS / 2] the median). */
    private static long[] repeat(int n, IntToLongFunction cpuNanosOf) {
        long[] xs = new long[REPEATS];
        for (int i = 0; i < REPEATS; i++) {
            xs[i] = cpuNanosOf.applyAsLong(n);
        }
        Arrays.sort(xs);
        return xs;
    }

    /** The naive recursive Fibonacci of the study: fib(0) = 0, fib(1) = 1; about φ^n calls. */
    public static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    public Info info() {
        return info;
    }
}
