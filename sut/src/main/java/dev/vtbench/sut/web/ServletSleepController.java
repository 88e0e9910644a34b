package dev.vtbench.sut.web;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import dev.vtbench.sut.executors.MeasuringExecutor;
import dev.vtbench.sut.scenarios.SleepScenario;

/**
 * Study 004, experiment 2: {@code GET /api/servlet/sleep?ms=S} sleeps on the request's own Tomcat
 * thread (a platform worker, or a virtual thread with {@code spring.threads.virtual.enabled=true}),
 * with no hand-off to any executor, as the source study's {@code GET /get} does
 * (shared/seeds/004). It is not under {@code /api/scenario/*}: those calls go through the benchmark
 * executor ({@link MeasuringExecutor}). Answers {@code {"sleptMs": S, "virtual": …, "thread": …}}.
 */
@RestController
public class ServletSleepController {

    public record Result(long sleptMs, boolean virtual, String thread) {
    }

    @GetMapping("/api/servlet/sleep")
    public Result sleep(@RequestParam("ms") long ms) throws InterruptedException {
        if (ms < 0 || ms > SleepScenario.MAX_MS) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "ms must be in 0.." + SleepScenario.MAX_MS + ", got " + ms);
        }
        Thread.sleep(ms);
        Thread t = Thread.currentThread();
        return new Result(ms, t.isVirtual(), t.getName());
    }
}
