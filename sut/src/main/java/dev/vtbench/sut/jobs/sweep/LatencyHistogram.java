package dev.vtbench.sut.jobs.sweep;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A lock-free latency histogram for hundreds of thousands of recording threads: values in
 * microseconds go to log-spaced buckets with a ratio of {@value #RATIO} between bucket bounds (so a
 * percentile read from it is within 1 % of the true value), plus an exact count, sum, sum of squares
 * and max. Percentiles are the geometric middle of the bucket holding the rank ⌈q·n⌉ (nearest rank,
 * not interpolated). Values below 1 µs are counted in bucket 0.
 */
public final class LatencyHistogram {

    static final double RATIO = 1.01;
    private static final double LOG_RATIO = Math.log(RATIO);
    /** bucket count: covers up to RATIO^BUCKETS µs ≈ 4.4e9 µs (73 min) */
    static final int BUCKETS = 2240;

    private final AtomicLongArray buckets = new AtomicLongArray(BUCKETS);
    private final LongAdder count = new LongAdder();
    private final DoubleAdder sumUs = new DoubleAdder();
    private final DoubleAdder sumSqUs = new DoubleAdder();
    private final AtomicLong maxNanos = new AtomicLong(Long.MIN_VALUE);

    static int bucketOf(double us) {
        if (us < 1) {
            return 0;
        }
        int b = (int) (Math.log(us) / LOG_RATIO) + 1;
        return Math.min(b, BUCKETS - 1);
    }

    /** A representative value of bucket b, µs: 0.5 for bucket 0, else the geometric middle of its bounds. */
    static double valueOf(int b) {
        if (b == 0) {
            return 0.5;
        }
        return Math.pow(RATIO, b - 0.5);
    }

    /** Record one latency, in nanoseconds (negative values are recorded as 0). */
    public void recordNanos(long nanos) {
        long n = Math.max(0, nanos);
        double us = n / 1000.0;
        buckets.incrementAndGet(bucketOf(us));
        count.increment();
        sumUs.add(us);
        sumSqUs.add(us * us);
        maxNanos.accumulateAndGet(n, Math::max);
    }

    public long count() {
        return count.sum();
    }

    /** Mean in ms, null when empty. */
    public Double meanMs() {
        long n = count();
        return n == 0 ? null : sumUs.sum() / n / 1000.0;
    }

    /** Population standard deviation in ms, null when empty. */
    public Double stdDevMs() {
        long n = count();
        if (n == 0) {
            return null;
        }
        double mean = sumUs.sum() / n;
        double var = Math.max(0, sumSqUs.sum() / n - mean * mean);
        return Math.sqrt(var) / 1000.0;
    }

    /** Exact max in ms, null when empty. */
    public Double maxMs() {
        return count() == 0 ? null : maxNanos.get() / 1e6;
    }

    /** The q-quantile (0 < q ≤ 1) in ms, nearest rank, within 1 % (bucket width); null when empty. */
    public Double quantileMs(double q) {
        long n = count();
        if (n == 0) {
            return null;
        }
        long rank = Math.max(1, (long) Math.ceil(q * n));
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            seen += buckets.get(b);
            if (seen >= rank) {
                return Math.min(valueOf(b) / 1000.0, maxMs());
            }
        }
        return maxMs();
    }
}
