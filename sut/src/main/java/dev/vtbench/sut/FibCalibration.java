package dev.vtbench.sut;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.IntToLongFunction;

import org.springframework.stereotype.Component;

/**
 * The n of {@code cpu-fib}'s fib(n), calibrated once at SUT start so that one call costs about
 * {@code bench.fib.target-cpu-ms} of thread CPU time on this host (the study used fib(40), "about 1 s",
 * on 8 cores). Measured on the starting (platform) thread with {@link ThreadMXBean#getCurrentThreadCpuTime()}
 * (it returns -1 on a virtual thread, so calls cannot be measured where they run), after a JIT warm-up:
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

    /** {@code /bench/info} {@code fib}: the calibrated n, the target and the measured CPU ms of one fib(n). */
    public record Info(int n, long targetCpuMs, double cpuMsPerCall) {
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
        for (int i = 0; i < 50; i++) {
            fib(20); // JIT warm-up (C2 compiles fib within the first few of these)
        }
        this.info = calibrate(props.fib().targetCpuMs(), n -> {
            long t0 = mx.getCurrentThreadCpuTime();
            fib(n);
            return mx.getCurrentThreadCpuTime() - t0;
        });
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
        return new Info(n, targetCpuMs, Math.round(samples[REPEATS / 2] / 1_000.0) / 1_000.0);
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
