package dev.vtbench.sut.scenarios.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;

/** {@code /ws/push} on virtual threads: the work runs on the variant's virtual threads. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=virtual", "bench.executor.kind=virtual-per-task", "bench.executor.thread-name-prefix=wsvt-"})
@DirtiesContext
class WsPushVirtualIT extends StubbedSutIT {

    /**
     * 20 connections, the last held 2.5 s after its open (the first ones longer, they open one after
     * another): two or three messages each, seq from 1 without gaps, all produced on virtual threads wsvt-N.
     */
    @Test
    void twentyConnections_twoMessagesEach_onVirtualThreads() throws Exception {
        List<WsPushClient> cs = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                cs.add(new WsPushClient(port));
            }
            assertEquals(20, new SutHttp(port).getJson("/bench/ws").get("sessionsOpen").asInt());
            Thread.sleep(2_500);
        } finally {
            for (WsPushClient c : cs) {
                c.close();
            }
        }
        for (WsPushClient c : cs) {
            List<WsPushClient.Received> got = List.copyOf(c.messages);
            assertTrue(got.size() == 2 || got.size() == 3, got.toString());
            for (int i = 0; i < got.size(); i++) {
                assertEquals(i + 1, got.get(i).seq(), got.toString());
            }
            for (WsPushClient.Received m : got) {
                assertTrue(m.thread().matches("wsvt-\\d+"), "work on the variant's virtual threads: " + m.thread());
            }
        }
    }
}
