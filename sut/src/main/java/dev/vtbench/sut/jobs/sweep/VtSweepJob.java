package dev.vtbench.sut.jobs.sweep;

import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Study 003's in-process job (the harness's in-process driver, src/load/in-process.ts):
 * {@code POST /bench/job/vt-sweep?op=sleep|socket&threads=N&durationMs=D&sleepMs=L&timeoutMs=X&sampleMs=S}
 * runs one sweep level ({@link VtSweep}) on the request's own thread and answers 200 with its
 * {@link VtSweep.Result}, whatever the level's outcome (an out-of-memory or a host limit is the
 * level's outcome, in {@code outcome} and {@code reason}). 400 for a parameter out of range, 409
 * when a level is already running. The harness starts a fresh JVM per level.
 */
@RestController
public class VtSweepJob {

    static final int MAX_THREADS = 2_000_000;
    static final long MAX_DURATION_MS = 600_000;
    static final long MAX_SLEEP_MS = 60_000;
    static final long MAX_TIMEOUT_MS = 3_600_000;

    private final AtomicBoolean busy = new AtomicBoolean();

    @PostMapping("/bench/job/vt-sweep")
    public ResponseEntity<VtSweep.Result> run(@RequestParam("op") String op, @RequestParam("threads") int threads,
            @RequestParam("durationMs") long durationMs, @RequestParam("sleepMs") long sleepMs,
            @RequestParam("timeoutMs") long timeoutMs, @RequestParam(name = "sampleMs", defaultValue = "200") long sampleMs)
            throws InterruptedException {
        VtSweep.Op o;
        try {
            o = VtSweep.Op.parse(op);
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, e.getMessage());
        }
        check("threads", threads, 1, MAX_THREADS);
        check("durationMs", durationMs, 1, MAX_DURATION_MS);
        check("sleepMs", sleepMs, 0, MAX_SLEEP_MS);
        check("timeoutMs", timeoutMs, 1, MAX_TIMEOUT_MS);
        check("sampleMs", sampleMs, 10, 60_000);
        if (!busy.compareAndSet(false, true)) {
            return ResponseEntity.status(HttpStatus.CONFLICT).build();
        }
        try {
            return ResponseEntity.ok(VtSweep.run(new VtSweep.Params(o, threads, durationMs, sleepMs, timeoutMs, sampleMs)));
        } finally {
            busy.set(false);
        }
    }

    private static void check(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, name + " must be in " + min + ".." + max + ", got " + v);
        }
    }
}
