package dev.vtbench.sut.scenarios.ws;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;
import org.springframework.web.socket.handler.SessionLimitExceededException;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.executors.MeasuringExecutor;

/**
 * Study 002 scenario 5 (issue 13): every open {@code /ws/push} connection gets one message every
 * {@code bench.ws.interval-ms} (default 1 s); producing each message costs {@code bench.ws.work-ms}
 * (default 10 ms) of blocking work, a sleep standing in for I/O, on the variant's executor
 * ({@code bench.executor.*}, through {@link MeasuringExecutor}, as the HTTP scenarios).
 *
 * <p>Which thread does what (the trap of issue 13):
 * <ul>
 * <li>One platform thread, {@code ws-tick}, owns the schedule: a {@link ScheduledThreadPoolExecutor}
 * with one fixed-rate entry per session. A tick only computes the message's scheduled time and hands
 * the message's task to the executor; it never sleeps, sends or waits for a task, so a bounded pool
 * that is full cannot block it (its lateness is measured: {@code tickLag*}). If it falls behind,
 * fixed-rate scheduling runs the missed ticks at once and every message still carries its own
 * scheduled time, so the delay shows as lateness at the client, never hidden.</li>
 * <li>The executor's thread sleeps {@code work-ms}, then writes the frame itself (Tomcat's blocking
 * send on the calling thread). No task waits for another task or for the ticker, so a bounded pool
 * cannot deadlock: with T threads it saturates at T / work-ms messages per second and the excess
 * queues (lateness grows) and, once its queue is full, is refused and counted ({@code messagesRejected},
 * a gap in the client's sequence). The source study's {@code @MessageMapping} handler is the
 * deadlock-prone shape (a blocking handler on the inbound channel's bounded pool, waiting on work
 * that needs the same pool); this service does not wait on anything of its own.</li>
 * <li>Tomcat's own threads only run the handshake and read control frames.</li>
 * </ul>
 *
 * <p>Concurrent sends to one session (a late task and the next one) are made safe by Spring's
 * {@link ConcurrentWebSocketSessionDecorator} ({@code bench.ws.send-time-limit-ms},
 * {@code bench.ws.buffer-size-limit-bytes}, overflow strategy TERMINATE): a session past a limit
 * is closed by this service with {@link CloseStatus#SESSION_NOT_RELIABLE} and counted by cause, never
 * dropped silently.
 *
 * <p>A message is JSON: {@code {"seq":n,"scheduledEpochMs":t,"queueMs":q,"thread":"name"}}, seq from 1
 * per connection, t = first due time + (seq − 1) × interval (epoch ms, the first due one interval
 * after the connection opened), q = ms the task waited for an executor thread, thread = the thread
 * that did the work.
 */
@Component
public class WsPushService implements DisposableBean {

    /** Close causes of {@link #snapshot} besides {@code client-<code>}. */
    public static final String SEND_TIME_LIMIT = "send-time-limit";
    public static final String BUFFER_SIZE_LIMIT = "buffer-size-limit";
    public static final String SEND_ERROR = "send-error";
    public static final String TRANSPORT_ERROR = "transport-error";
    public static final String SHUTDOWN = "shutdown";

    /** A tick later than this after its scheduled time counts in {@code tickLagOver100Ms}. */
    static final long TICK_LATE_MS = 100;

    /**
     * The counters, cumulative since the JVM started except {@code tickLagMaxMs}, the largest tick lag
     * since the previous snapshot (the harness reads one before and one after a cell).
     *
     * @param sessionsOpen        sessions open now
     * @param sessionsOpened      sessions ever opened
     * @param sessionsClosed      sessions ever closed
     * @param closesByCause       closes by cause: {@code client-<close code>} (the client closed, e.g.
     *                            {@code client-1000}), {@code send-time-limit}, {@code buffer-size-limit}
     *                            (the decorator's limits), {@code send-error}, {@code transport-error}
     * @param ticks               ticks run (messages scheduled)
     * @param messagesSent        messages written to a session
     * @param messagesRejected    messages the executor refused (a full bounded queue): never sent
     * @param messagesSkipped     tasks that found their session closed when their work was done
     * @param tickLagOver100Ms    ticks that ran more than 100 ms after their scheduled time
     * @param tickLagMaxMs        largest tick lag since the previous snapshot, ms
     */
    public record Stats(String path, long workMs, long intervalMs, int sendTimeLimitMs, int bufferSizeLimitBytes,
            int sessionsOpen, long sessionsOpened, long sessionsClosed, Map<String, Long> closesByCause, long ticks,
            long messagesSent, long messagesRejected, long messagesSkipped, long tickLagOver100Ms, long tickLagMaxMs) {
    }

    /** One connection's state. */
    private static final class Push {
        final ConcurrentWebSocketSessionDecorator session;
        final long firstDueEpochMs;
        final AtomicLong seq = new AtomicLong();
        volatile ScheduledFuture<?> schedule;
        volatile String closeCause;

        Push(ConcurrentWebSocketSessionDecorator session, long firstDueEpochMs) {
            this.session = session;
            this.firstDueEpochMs = firstDueEpochMs;
        }
    }

    private final MeasuringExecutor executor;
    private final BenchProperties.Ws cfg;
    private final ScheduledThreadPoolExecutor ticker;
    private final Map<String, Push> sessions = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> closes = new ConcurrentHashMap<>();
    private final LongAdder opened = new LongAdder();
    private final LongAdder closed = new LongAdder();
    private final LongAdder ticks = new LongAdder();
    private final LongAdder sent = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final LongAdder lateTicks = new LongAdder();
    private final LongAccumulator tickLagMax = new LongAccumulator(Math::max, 0);

    public WsPushService(MeasuringExecutor executor, BenchProperties props) {
        this.executor = executor;
        this.cfg = props.ws();
        this.ticker = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ws-tick");
            t.setDaemon(true);
            return t;
        });
        ticker.setRemoveOnCancelPolicy(true);
    }

    /** The path the handler is mapped to ({@link WsPushConfig}). */
    public static final String PATH = "/ws/push";

    /** A connection opened: schedule its pushes, the first one interval from now. */
    public void open(WebSocketSession raw) {
        ConcurrentWebSocketSessionDecorator s = new ConcurrentWebSocketSessionDecorator(raw, cfg.sendTimeLimitMs(),
                cfg.bufferSizeLimitBytes());
        Push p = new Push(s, System.currentTimeMillis() + cfg.intervalMs());
        sessions.put(raw.getId(), p);
        opened.increment();
        p.schedule = ticker.scheduleAtFixedRate(() -> tick(p), cfg.intervalMs(), cfg.intervalMs(), TimeUnit.MILLISECONDS);
    }

    /** A connection closed (by either side): stop its pushes and count the close once, by cause. */
    public void closed(WebSocketSession raw, CloseStatus status) {
        Push p = sessions.remove(raw.getId());
        if (p == null) {
            return;
        }
        p.schedule.cancel(false);
        String cause = p.closeCause != null ? p.closeCause : "client-" + status.getCode();
        closes.computeIfAbsent(cause, k -> new LongAdder()).increment();
        closed.increment();
    }

    /** A transport error on a session: it is closed next; name the cause unless one is set already. */
    public void transportError(WebSocketSession raw) {
        Push p = sessions.get(raw.getId());
        if (p != null && p.closeCause == null) {
            p.closeCause = TRANSPORT_ERROR;
        }
    }

    /** Runs on {@code ws-tick}: hand the next message's work to the executor; never blocks. */
    private void tick(Push p) {
        long seq = p.seq.incrementAndGet();
        long scheduled = p.firstDueEpochMs + (seq - 1) * cfg.intervalMs();
        long lag = System.currentTimeMillis() - scheduled;
        ticks.increment();
        if (lag > TICK_LATE_MS) {
            lateTicks.increment();
        }
        tickLagMax.accumulate(lag);
        long submitNanos = System.nanoTime();
        try {
            executor.submit(() -> {
                double queueMs = (System.nanoTime() - submitNanos) / 1e6;
                Thread.sleep(cfg.workMs());
                send(p, seq, scheduled, queueMs);
                return null;
            });
        } catch (MeasuringExecutor.Rejected e) {
            rejected.increment();
        }
    }

    /** Runs on the executor's thread after the work: write the frame; a limit or an error closes the session. */
    private void send(Push p, long seq, long scheduledEpochMs, double queueMs) {
        if (p.closeCause != null || !p.session.isOpen()) {
            skipped.increment();
            return;
        }
        String json = "{\"seq\":" + seq + ",\"scheduledEpochMs\":" + scheduledEpochMs + ",\"queueMs\":"
                + String.format(java.util.Locale.ROOT, "%.3f", queueMs) + ",\"thread\":\""
                + Thread.currentThread().getName() + "\"}";
        try {
            p.session.sendMessage(new TextMessage(json));
            sent.increment();
        } catch (SessionLimitExceededException e) {
            closeBy(p, limitCause(e), e.getStatus());
        } catch (IOException | RuntimeException e) {
            if (p.session.isOpen()) {
                closeBy(p, SEND_ERROR, CloseStatus.SERVER_ERROR);
            } else {
                skipped.increment(); // the client left while this frame was being written
            }
        }
    }

    /** Which of the decorator's limits a {@link SessionLimitExceededException} reports (its message says). */
    static String limitCause(SessionLimitExceededException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        return m.startsWith("Send time") ? SEND_TIME_LIMIT : BUFFER_SIZE_LIMIT;
    }

    private void closeBy(Push p, String cause, CloseStatus status) {
        if (p.closeCause == null) {
            p.closeCause = cause;
        }
        try {
            p.session.close(status);
        } catch (IOException | RuntimeException e) {
            // already closing; afterConnectionClosed counts it with the cause set above
        }
    }

    /** The counters now; resets the since-last-read tick-lag maximum. */
    public Stats snapshot() {
        Map<String, Long> byCause = new TreeMap<>();
        closes.forEach((k, v) -> byCause.put(k, v.sum()));
        return new Stats(PATH, cfg.workMs(), cfg.intervalMs(), cfg.sendTimeLimitMs(), cfg.bufferSizeLimitBytes(),
                sessions.size(), opened.sum(), closed.sum(), byCause, ticks.sum(), sent.sum(), rejected.sum(),
                skipped.sum(), lateTicks.sum(), tickLagMax.getThenReset());
    }

    /** Sessions open now (the sampler's {@code wsSessionsOpen}). */
    public int sessionsOpen() {
        return sessions.size();
    }

    /** Messages sent so far (the sampler's {@code wsMessagesSent}). */
    public long messagesSent() {
        return sent.sum();
    }

    @Override
    public void destroy() {
        ticker.shutdownNow();
    }
}
