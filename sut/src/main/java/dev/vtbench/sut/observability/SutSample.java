package dev.vtbench.sut.observability;

import dev.vtbench.sut.scenarios.ws.WsPushService;

/**
 * One sampler tick; the shape is {@code SutSample} in src/types/sut-api.ts. {@code wsSessionsOpen} and
 * {@code wsMessagesSent} (cumulative) are the WebSocket push scenario's ({@link WsPushService}).
 */
public record SutSample(
        long tEpochMs,
        int executorActive,
        int queueSize,
        int inFlight,
        long completed,
        int platformThreads,
        long heapUsedBytes,
        long heapCommittedBytes,
        Long rssBytes,
        Double processCpuLoad,
        Long processCpuTimeNs,
        Integer vtSchedulerParallelism,
        Integer vtSchedulerPoolSize,
        Integer vtMounted,
        Long vtQueued,
        long pinnedTotal,
        long submitFailedTotal,
        long upstreamErrorsTotal,
        int wsSessionsOpen,
        long wsMessagesSent) {
}
