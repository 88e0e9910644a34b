package dev.vtbench.sut.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** {@code bench.http.*}, {@code bench.db.*}, {@code bench.fib.*}: defaults, binding, and refusals naming the property. */
class Study002PropertiesTest {

    private static BenchProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("bench", BenchProperties.class);
    }

    private static void refused(String property, String value) {
        BindException e = assertThrows(BindException.class, () -> bind(Map.of(property, value)), property + "=" + value);
        InvalidBenchPropertyException bad = InvalidBenchPropertyException.findIn(e);
        assertNotNull(bad, "cause chain should hold the named property: " + e);
        assertEquals(property, bad.property());
        assertTrue(bad.getMessage().startsWith(property + "="), bad.getMessage());
    }

    @Test
    void defaults_noDatabase_hikariDefaults_http20000_fib100() {
        BenchProperties p = bind(Map.of());
        assertFalse(p.db().configured());
        assertNull(p.db().url());
        assertEquals(10, p.db().poolSize(), "HikariCP's default maximumPoolSize");
        assertEquals(30_000, p.db().connectionTimeoutMs(), "HikariCP's default connectionTimeout");
        assertNull(p.http().baseUrl(), "unset: derived from spring.ai.openai.base-url");
        assertEquals(20_000, p.http().maxConnections());
        assertEquals(100, p.fib().targetCpuMs());
    }

    @Test
    void kebabCaseBinds_andThePasswordIsNeverPrinted() {
        BenchProperties p = bind(Map.of("bench.db.url", "jdbc:postgresql://127.0.0.1:5433/x", "bench.db.user", "u",
                "bench.db.password", "s3cret", "bench.db.pool-size", "200", "bench.db.connection-timeout-ms", "250",
                "bench.http.base-url", "http://127.0.0.1:9001", "bench.http.max-connections", "5",
                "bench.http.timeout", "5s", "bench.fib.target-cpu-ms", "7"));
        assertTrue(p.db().configured());
        assertEquals(200, p.db().poolSize());
        assertEquals(250, p.db().connectionTimeoutMs());
        assertEquals("s3cret", p.db().password());
        assertFalse(p.db().toString().contains("s3cret"), p.db().toString());
        assertEquals("http://127.0.0.1:9001", p.http().baseUrl());
        assertEquals(5, p.http().maxConnections());
        assertEquals(Duration.ofSeconds(5), p.http().timeout());
        assertEquals(7, p.fib().targetCpuMs());
        assertFalse(bind(Map.of("bench.db.url", " ")).db().configured(), "blank = unset");
    }

    @Test
    void badValuesAreRefusedNamingTheProperty() {
        refused("bench.db.url", "postgres://127.0.0.1/x");
        refused("bench.db.pool-size", "0");
        refused("bench.db.connection-timeout-ms", "249");
        refused("bench.http.base-url", "127.0.0.1:9000");
        refused("bench.http.max-connections", "0");
        refused("bench.http.keep-alive", "0s");
        refused("bench.http.timeout", "0s");
        refused("bench.fib.target-cpu-ms", "0");
        refused("bench.fib.target-cpu-ms", "10001");
    }
}
