package dev.vtbench.sut.jobs;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the tasks of one {@code @Async} burst saw, recorded by the tasks themselves: how many ran at
 * once (peak), on which threads (name prefix = the name with trailing digits stripped, and whether
 * virtual: {@link Thread#isVirtual()}), first start and last end (System.nanoTime()). Thread-safe.
 */
public final class AsyncBurst {

    private final CountDownLatch done;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger peakRunning = new AtomicInteger();
    private final AtomicLong firstStartNs = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastEndNs = new AtomicLong(Long.MIN_VALUE);
    private final LongAdder virtualTasks = new LongAdder();
    private final LongAdder platformTasks = new LongAdder();
    private final Map<String, LongAdder> byPrefix = new ConcurrentHashMap<>();
    private final Set distinctThreads = new Set();

    public AsyncBurst(int tasks) {
        this.done = new CountDownLatch(tasks);
    }

    void taskStarted(Thread t) {
        long now = System.nanoTime();
        firstStartNs.accumulateAndGet(now, Math::min);
        peakRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        (t.isVirtual() ? virtualTasks : platformTasks).increment();
        byPrefix.computeIfAbsent(prefixOf(t.getName()), k -> new LongAdder()).increment();
        if (!t.isVirtual()) {
            distinctThreads.add(t.threadId());
        }
    }

    void taskEnded() {
        running.decrementAndGet();
        lastEndNs.accumulateAndGet(System.nanoTime(), Math::max);
        done.countDown();
    }

    /** Waits until every task ended; false on timeout. */
    public boolean await(long timeoutMs) throws InterruptedException {
        return done.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    public long completed(int tasks) {
        return tasks - done.getCount();
    }

    public int peakRunning() {
        return peakRunning.get();
    }

    /** null when no task started */
    public Long firstStartNs() {
        long v = firstStartNs.get();
        return v == Long.MAX_VALUE ? null : v;
    }

    /** null when no task ended */
    public Long lastEndNs() {
        long v = lastEndNs.get();
        return v == Long.MIN_VALUE ? null : v;
    }

    public long virtualTasks() {
        return virtualTasks.sum();
    }

    public long platformTasks() {
        return platformTasks.sum();
    }

    /** distinct platform threads that ran a task (virtual threads are one per task and not counted here) */
    public int distinctPlatformThreads() {
        return distinctThreads.size();
    }

    /** tasks per thread-name prefix, sorted by prefix */
    public Map<String, Long> tasksByThreadNamePrefix() {
        Map<String, Long> out = new TreeMap<>();
        byPrefix.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** {@code task-12} → {@code task-}; a name without trailing digits stays as it is; empty → {@code (unnamed)} */
    static String prefixOf(String name) {
        if (name == null || name.isEmpty()) {
            return "(unnamed)";
        }
        int i = name.length();
        while (i > 0 && Character.isDigit(name.charAt(i - 1))) {
            i--;
        }
        return name.substring(0, i);
    }

    /** A small concurrent set of thread ids. */
    private static final class Set {
        private final Map<Long, Boolean> m = new ConcurrentHashMap<>();

        void add(long id) {
            m.putIfAbsent(id, Boolean.TRUE);
        }

        int size() {
            return m.size();
        }
    }
}
