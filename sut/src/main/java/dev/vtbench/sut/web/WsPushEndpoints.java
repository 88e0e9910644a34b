package dev.vtbench.sut.web;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.vtbench.sut.scenarios.ws.WsPushService;

/**
 * {@code GET /bench/ws}: the WebSocket push scenario's settings and counters
 * ({@link WsPushService.Stats}; shape in src/types/sut-api.ts {@code WsPushStats}). Reading it resets the
 * since-last-read maximum of the tick lag, so the harness reads it right before and right after a cell.
 */
@RestController
public class WsPushEndpoints {

    private final WsPushService service;

    public WsPushEndpoints(WsPushService service) {
        this.service = service;
    }

    @GetMapping("/bench/ws")
    public WsPushService.Stats stats() {
        return service.snapshot();
    }
}
