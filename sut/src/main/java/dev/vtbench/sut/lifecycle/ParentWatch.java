package dev.vtbench.sut.lifecycle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Watches one process (the harness that started this JVM, {@code bench.parent-pid}) and calls back
 * once when it is gone, so that a SUT never outlives a harness killed with SIGKILL (which leaves the
 * harness no chance to stop its children). Plain Java; {@link ParentExitStopper} wires it into Spring.
 *
 * <p>Every {@code interval}, on one daemon thread, the process counts as gone when
 * <ul>
 * <li>there is no process with that pid, or it is not alive;</li>
 * <li>its start instant differs from the one seen first (the pid now names another process);</li>
 * <li>{@code /proc/<pid>/stat} says it is a zombie (it exited and was not reaped yet: seen here with
 *     Temurin 25, {@code ProcessHandle.of(zombie).isAlive()} is {@code true});</li>
 * <li>it was this JVM's parent at the start and this JVM's parent has changed (the kernel re-parents
 *     the children of a process when it exits).</li>
 * </ul>
 * A process that is not running when the watch starts is gone at the first check.
 *
 * <p>{@code ProcessHandle.onExit()} is not used: for a process that is not a child of this JVM the
 * JDK polls it with a sleep that grows from 300 ms by 30 ms a round up to 5 s
 * ({@code java.lang.ProcessHandleImpl#completion}, JDK 25), and it takes a zombie for alive.
 */
public final class ParentWatch implements AutoCloseable {

    /**
     * What one look at the watched process shows.
     *
     * @param running      a process with that pid exists and is alive (a zombie counts as running here)
     * @param start        its start instant, if the OS tells it
     * @param zombie       it has exited and waits to be reaped ({@code /proc/<pid>/stat} state {@code Z})
     * @param ownParentPid this JVM's parent pid at the time of the look; -1 if unknown
     */
    record Seen(boolean running, Optional<Instant> start, boolean zombie, long ownParentPid) {}

    /** How a look is taken; {@link #look(long)} is the real one, tests pass their own. */
    @FunctionalInterface
    interface Looker {
        Seen look(long pid);
    }

    private final ScheduledExecutorService timer;
    private final AtomicBoolean fired = new AtomicBoolean();
    private volatile boolean closed;

    private ParentWatch(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /**
     * Start watching {@code pid}; the first check runs at once (on the watch thread).
     *
     * @param pid      the process to watch, &gt; 0
     * @param interval time between two checks
     * @param onGone   called once, on the watch thread, with a one-line reason (e.g. "parent process 42
     *                 exited"); not called after {@link #close()}
     * @param looker   how a check looks at the process ({@link #look(long)} in production)
     * @throws IllegalArgumentException if {@code pid <= 0} or the interval is not positive
     */
    static ParentWatch start(long pid, Duration interval, Consumer<String> onGone, Looker looker) {
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be > 0, was " + pid);
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be > 0, was " + interval);
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "parent-watch");
            t.setDaemon(true);
            return t;
        });
        ParentWatch watch = new ParentWatch(timer);
        Seen first = looker.look(pid);
        boolean wasOwnParent = first.ownParentPid() == pid;
        timer.scheduleWithFixedDelay(() -> {
            if (watch.closed || watch.fired.get()) {
                return;
            }
            String reason = first.running() ? goneReason(pid, first, looker.look(pid), wasOwnParent)
                    : "parent process " + pid + " was not running when the watch started";
            if (reason != null && !watch.closed && watch.fired.compareAndSet(false, true)) {
                timer.shutdown();
                onGone.accept(reason);
            }
        }, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return watch;
    }

    /**
     * Why the watched process no longer counts as there, or null while it does. Pure.
     *
     * @param pid          the watched pid
     * @param first        the look taken when the watch started (the process was running then)
     * @param now          the current look
     * @param wasOwnParent whether {@code pid} was this JVM's parent when the watch started
     */
    static String goneReason(long pid, Seen first, Seen now, boolean wasOwnParent) {
        if (!now.running()) {
            return "parent process " + pid + " exited";
        }
        if (first.start().isPresent() && now.start().isPresent() && !first.start().equals(now.start())) {
            return "parent process " + pid + " exited (its pid now belongs to another process)";
        }
        if (now.zombie()) {
            return "parent process " + pid + " exited (a zombie, not reaped yet)";
        }
        if (wasOwnParent && now.ownParentPid() != pid) {
            return "parent process " + pid + " went away (this process was re-parented to " + now.ownParentPid() + ")";
        }
        return null;
    }

    /** The real look: {@link ProcessHandle} for presence and start instant, {@code /proc} for the zombie state. */
    static Seen look(long pid) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        boolean running = h.map(ProcessHandle::isAlive).orElse(false);
        Optional<Instant> start = h.flatMap(p -> p.info().startInstant());
        long ownParent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        return new Seen(running, start, procState(pid) == 'Z', ownParent);
    }

    /** The state letter of {@code /proc/<pid>/stat} (R, S, Z, …); '?' when it cannot be read (no procfs, no process). */
    static char procState(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int close = stat.lastIndexOf(')'); // the command name may hold spaces and parentheses
            return close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
        } catch (IOException | RuntimeException e) {
            return '?';
        }
    }

    /** Whether the callback has run (or is running). */
    boolean fired() {
        return fired.get();
    }

    /** Stop watching; no callback afterwards. Safe to call from the callback itself (no interrupt). */
    @Override
    public void close() {
        closed = true;
        timer.shutdown();
    }
}
