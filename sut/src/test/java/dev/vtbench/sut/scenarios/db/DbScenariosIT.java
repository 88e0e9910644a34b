package dev.vtbench.sut.scenarios.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.SutHttp;

/**
 * Study 002's scenarios on virtual threads against a real PostgreSQL and a stub delay route: each answers
 * what it should, and its exec time is the sum (serial) or the critical path (structured fan-out) of the
 * phases it reports. Timing bounds are loose where the host adds noise, but tight enough to tell 150 ms
 * from 100 ms and from 230 ms.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=virtual", "bench.executor.kind=virtual-per-task", "bench.db.pool-size=10",
                "bench.pinned.threshold-ms=20"})
@DirtiesContext
class DbScenariosIT extends DbSutIT {

    SutHttp http;

    @BeforeEach
    void warmUp() {
        http = new SutHttp(port);
        get("db-small?ms=0");
        get("mixed?dbMs=0&userMs=0&logisticsMs=0");
        get("mixed-structured?dbMs=0&userMs=0&logisticsMs=0");
    }

    private SutHttp.Result get(String idAndQuery) {
        SutHttp.Result r = getAsync(idAndQuery).join();
        assertEquals(200, r.status(), idAndQuery + ": " + r.body());
        return r;
    }

    private CompletableFuture<SutHttp.Result> getAsync(String idAndQuery) {
        return http.sendAsync("GET", "/api/scenario/" + idAndQuery, null);
    }

    private List<SutHttp.Result> concurrent(int n, String idAndQuery) {
        List<CompletableFuture<SutHttp.Result>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fs.add(getAsync(idAndQuery));
        }
        return fs.stream().map(CompletableFuture::join).toList();
    }

    @Test
    void dbSmall_readsASeededOrder_execIsTheQueryWithConnAndDbPhases() {
        SutHttp.Result r = get("db-small?ms=40");
        JsonNode order = r.json().get("result");
        int id = order.get("id").asInt();
        assertTrue(id >= 1 && id <= Orders.ORDER_COUNT, r.body());
        assertEquals(id % 1000 + 1, order.get("userId").asInt(), r.body());
        assertEquals("PAID", order.get("status").asText());
        Map<String, Double> t = timings(r.serverTiming());
        assertEquals(List.of("queue", "exec", "conn", "db"), List.copyOf(t.keySet()), r.serverTiming());
        assertTrue(t.get("db") >= 40 && t.get("db") < 1_000, r.serverTiming());
        assertTrue(t.get("conn") < t.get("db"), r.serverTiming());
        assertTrue(r.execMs() >= t.get("db"), r.serverTiming());
        int next = get("db-small?ms=0").json().at("/result/id").asInt();
        assertEquals(id % Orders.ORDER_COUNT + 1, next, "order ids go round-robin");
    }

    @Test
    void ioHttp_oneBlockingGetOfTheDelayRoute() {
        int before = DELAY.requestsSeen();
        SutHttp.Result r = get("io-http?ms=100");
        assertEquals(100, r.json().at("/result/delayedMs").asLong(), r.body());
        assertEquals("io-http", r.json().get("scenario").asText());
        assertTrue(r.execMs() >= 100 && r.execMs() < 1_000, r.serverTiming());
        assertEquals(before + 1, DELAY.requestsSeen());
    }

    @Test
    void mixed_serial_execIsDbPlusUserPlusLogistics_andTheUserCallCarriesTheOrdersUserId() {
        DELAY.userIds.clear();
        double[] excess = new double[3];
        for (int i = 0; i < excess.length; i++) {
            SutHttp.Result r = get("mixed?dbMs=50&userMs=100&logisticsMs=80");
            Map<String, Double> t = timings(r.serverTiming());
            assertEquals(List.of("queue", "exec", "conn", "db", "user", "logistics"), List.copyOf(t.keySet()), r.serverTiming());
            assertTrue(t.get("db") >= 50 && t.get("user") >= 100 && t.get("logistics") >= 80, r.serverTiming());
            assertTrue(r.execMs() >= 230, r.serverTiming());
            excess[i] = r.execMs() - (t.get("db") + t.get("user") + t.get("logistics"));
            JsonNode res = r.json().get("result");
            assertEquals(res.at("/order/userId").asInt(), res.at("/user/userId").asInt(), r.body());
            assertEquals(res.at("/order/id").asInt(), res.at("/logistics/orderId").asInt(), r.body());
            assertEquals(String.valueOf(res.at("/order/userId").asInt()), DELAY.userIds.get(DELAY.userIds.size() - 1));
        }
        Arrays.sort(excess);
        // serial: exec covers the three phases one after another (plus microseconds of glue)
        assertTrue(excess[1] >= 0 && excess[1] < 20, "exec − (db + user + logistics), median of 3: " + Arrays.toString(excess));
    }

    @Test
    void mixedStructured_execIsTheCriticalPath_maxOfDbPlusUserAndLogistics_notTheLongestCall() {
        // the study's values: critical path max(50 + 100, 80) = 150 ms; the study says 100 ms, serial is 230 ms
        double[] exec = new double[3];
        double[] excess = new double[3];
        for (int i = 0; i < exec.length; i++) {
            SutHttp.Result r = get("mixed-structured?dbMs=50&userMs=100&logisticsMs=80");
            Map<String, Double> t = timings(r.serverTiming());
            assertEquals(Map.of("queue", 0, "exec", 0, "conn", 0, "db", 0, "user", 0, "logistics", 0).keySet(), t.keySet(),
                    r.serverTiming());
            exec[i] = r.execMs();
            excess[i] = r.execMs() - Math.max(t.get("db") + t.get("user"), t.get("logistics"));
            JsonNode res = r.json().get("result");
            assertEquals(res.at("/order/userId").asInt(), res.at("/user/userId").asInt(), r.body());
        }
        Arrays.sort(exec);
        Arrays.sort(excess);
        assertTrue(exec[1] >= 150 && exec[1] < 200, "median exec " + Arrays.toString(exec) + " vs 150 (critical path), 100 (study), 230 (serial)");
        assertTrue(excess[1] >= 0 && excess[1] < 25, "exec − max(db + user, logistics): " + Arrays.toString(excess));

        // logistics as the longest branch: max(10 + 20, 150) = 150
        SutHttp.Result r = get("mixed-structured?dbMs=10&userMs=20&logisticsMs=150");
        assertTrue(r.execMs() >= 150 && r.execMs() < 200, r.serverTiming());
    }

    @Test
    void mixed_missingOrBadParameter_400NamingIt() {
        for (String q : List.of("mixed?userMs=1&logisticsMs=1", "mixed-structured?dbMs=1&userMs=x&logisticsMs=1",
                "mixed?dbMs=1&userMs=1", "db-small", "db-small-synchronized?ms=-1", "io-http?ms=1.5")) {
            SutHttp.Result r = getAsync(q).join();
            assertEquals(400, r.status(), q + ": " + r.body());
            assertEquals("bad_scenario_parameter", r.json().get("error").asText());
        }
        assertTrue(getAsync("mixed?userMs=1&logisticsMs=1").join().json().get("message").asText().contains("'dbMs'"));
    }

    @Test
    void dbSmallSynchronized_oneSharedMonitor_concurrentQueriesRunOneAtATime_butDbSmallRunsThemTogether() {
        long t0 = System.nanoTime();
        List<SutHttp.Result> parallel = concurrent(4, "db-small?ms=150");
        double parallelMs = (System.nanoTime() - t0) / 1e6;
        assertTrue(parallelMs < 450, "db-small: 4 queries on a pool of 10 overlap; took " + parallelMs + " ms: " + parallel);

        t0 = System.nanoTime();
        List<SutHttp.Result> serial = concurrent(4, "db-small-synchronized?ms=150");
        double serialMs = (System.nanoTime() - t0) / 1e6;
        assertTrue(serialMs >= 4 * 150, "db-small-synchronized: 4 queries one after another take >= 600 ms, took " + serialMs);
        double[] locks = serial.stream().mapToDouble(r -> timings(r.serverTiming()).get("lock")).sorted().toArray();
        // waits for the monitor ≈ 0, 150, 300, 450 ms, less the few ms between arrivals
        assertTrue(locks[0] < 100 && locks[2] >= 200 && locks[3] >= 350, Arrays.toString(locks));
        for (SutHttp.Result r : serial) {
            assertEquals(List.of("queue", "exec", "lock", "conn", "db"), List.copyOf(timings(r.serverTiming()).keySet()));
        }
    }

    /**
     * The study's pitfall on JDK 25: virtual threads waiting for the shared monitor and the holder blocked
     * in the socket read do not pin (JEP 491), so JFR reports no {@code jdk.VirtualThreadPinned} of 20 ms
     * or more during a wave of 20 concurrent calls that each hold the monitor for 20 ms (the last waits
     * ~400 ms). On JDK 21-23 every waiter and the holder would pin.
     */
    @Test
    void dbSmallSynchronized_pinnedEventsDuringAWave_noneOnJdk24Plus() {
        concurrent(20, "db-small-synchronized?ms=1"); // warm-up: class initialisation may pin once
        JsonNode before = http.getJson("/bench/pinned");
        assertTrue(before.get("flushed").asBoolean(), before.toString());
        List<SutHttp.Result> wave = concurrent(20, "db-small-synchronized?ms=20");
        assertTrue(wave.stream().allMatch(r -> r.status() == 200), wave.toString());
        double maxLock = wave.stream().mapToDouble(r -> timings(r.serverTiming()).get("lock")).max().orElseThrow();
        assertTrue(maxLock >= 200, "the wave really queued on the monitor: max lock wait " + maxLock);
        JsonNode after = http.getJson("/bench/pinned");
        assertTrue(after.get("flushed").asBoolean(), after.toString());
        long during = after.get("total").asLong() - before.get("total").asLong();
        System.out.println("db-small-synchronized wave of 20 on JDK " + Runtime.version() + ": pinned events >= 20 ms during it: "
                + during + "; cumulative " + after);
        if (Runtime.version().feature() >= 24) {
            assertEquals(0, during, "JEP 491: synchronized no longer pins; saw " + after);
        } else {
            assertTrue(during >= 1, "JDK < 24 pins inside synchronized; saw " + after);
        }
    }

    @Test
    void info_dbHttpAndFibBlocks() {
        JsonNode info = http.getJson("/bench/info");
        JsonNode db = info.get("db");
        assertTrue(db.get("configured").asBoolean(), db.toString());
        assertEquals(PG.jdbcUrl(), db.get("url").asText());
        assertEquals(10, db.get("poolSize").asInt());
        assertEquals(30_000, db.get("connectionTimeoutMs").asLong());
        assertTrue(db.get("serverVersion").asText().startsWith("PostgreSQL "), db.toString());
        String hikari = db.get("hikariVersion").asText();
        assertTrue(hikari.matches("\\d+\\.\\d+\\.\\d+"), hikari);
        int[] v = Arrays.stream(hikari.split("\\.")).mapToInt(Integer::parseInt).toArray();
        boolean fixExpected = v[0] > 7 || (v[0] == 7 && v[1] >= 1); // PR 2402 shipped in 7.1.0
        assertEquals(fixExpected, db.get("hikariYieldFix").asBoolean(), db.toString());
        assertTrue(db.get("jdbcDriverVersion").asText().matches("\\d+\\.\\d+\\.\\d+.*"), db.toString());
        assertEquals(8, db.size(), db.toString());

        JsonNode h = info.get("http");
        assertEquals(DELAY.baseUrl(), h.get("baseUrl").asText());
        assertEquals("bench.http.base-url", h.get("baseUrlFrom").asText());
        assertEquals(20_000, h.get("maxIdleConnections").asInt());
        assertTrue(h.get("maxOpenConnections").isNull());
        assertTrue(h.get("clientVersion").asText().matches("\\d+\\.\\d+\\.\\d+.*"), h.toString());

        assertTrue(info.get("fib").get("n").asInt() > 0, info.get("fib").toString());
        assertEquals("[\"cpu-fib\",\"db-small\",\"db-small-synchronized\",\"io-http\",\"llm\",\"llm-stream\",\"mixed\",\"mixed-structured\",\"sleep\"]",
                info.get("scenarios").toString());
        assertFalse(info.get("jvmFlags").toString().isEmpty());
    }
}
