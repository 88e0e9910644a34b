package dev.vtbench.sut.scenarios.db;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the study-002 integration tests: each test class gets a fresh real PostgreSQL
 * ({@link TestPostgres}, seeded) and a stub of the mock's delay route ({@link StubDelayServer}), both
 * started before the class and stopped after it; the SUT ({@code @SpringBootTest(RANDOM_PORT)} on the
 * subclass) gets {@code bench.db.url}/{@code user} and {@code bench.http.base-url} pointing at them.
 */
abstract class DbSutIT {

    static TestPostgres PG;
    static StubDelayServer DELAY;

    @Value("${local.server.port}")
    int port;

    @BeforeAll
    static void startPostgresAndDelayStub() {
        PG = TestPostgres.start();
        DELAY = new StubDelayServer();
    }

    @DynamicPropertySource
    static void pointTheSutAtThem(DynamicPropertyRegistry r) {
        r.add("bench.db.url", () -> PG.jdbcUrl());
        r.add("bench.db.user", () -> TestPostgres.USER);
        r.add("bench.http.base-url", () -> DELAY.baseUrl());
    }

    @AfterAll
    static void stopThem() {
        if (DELAY != null) {
            DELAY.close();
        }
        if (PG != null) {
            PG.close();
        }
    }

    private static final Pattern ENTRY = Pattern.compile("([a-z][a-z0-9]*);dur=(\\d+\\.\\d{3})");

    /** Every {@code name;dur=ms} entry of a Server-Timing header, in order. */
    static Map<String, Double> timings(String serverTiming) {
        Map<String, Double> m = new LinkedHashMap<>();
        if (serverTiming != null) {
            Matcher x = ENTRY.matcher(serverTiming);
            while (x.find()) {
                m.put(x.group(1), Double.parseDouble(x.group(2)));
            }
        }
        return m;
    }
}
