package dev.vtbench.sut.jobs.sweep;

import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import dev.vtbench.sut.jobs.BenchLimits;

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

    /** the parameters' ranges: bench-limits.properties (the harness's plan check reads the same file) */
    static final String JOB = "vt-sweep";

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
        BenchLimits.check(JOB, "threads", threads);
        BenchLimits.check(JOB, "durationMs", durationMs);
        BenchLimits.check(JOB, "sleepMs", sleepMs);
        BenchLimits.check(JOB, "timeoutMs", timeoutMs);
        BenchLimits.check(JOB, "sampleMs", sampleMs);
        if (!busy.compareAndSet(false, true)) {
            return ResponseEntity.status(HttpStatus.CONFLICT).build();
        }
        try {
            return ResponseEntity.ok(VtSweep.run(new VtSweep.Params(o, threads, durationMs, sleepMs, timeoutMs, sampleMs)));
        } finally {
            busy.set(false);
        }
    }
}
