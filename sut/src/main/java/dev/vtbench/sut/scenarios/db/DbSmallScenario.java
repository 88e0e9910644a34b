package dev.vtbench.sut.scenarios.db;

import java.sql.SQLException;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.scenarios.Scenario;
import dev.vtbench.sut.scenarios.ScenarioRequest;
import dev.vtbench.sut.scenarios.SleepScenario;
import dev.vtbench.sut.web.RequestPhases;

/**
 * {@code db-small}: study 002's "high-frequency small query" (section 5.1): one PostgreSQL query of
 * {@code ms} ({@code pg_sleep}) per request through the HikariCP pool ({@link Orders}, {@link DbPool}).
 * Query parameter {@code ms}: a whole number in 0..{@value SleepScenario#MAX_MS}, required. With pool
 * size P every request holds a connection for about ms, so throughput ≤ P / ms whatever the executor
 * (10 / 5 ms = 2,000 req/s); beyond it requests wait in Hikari ({@code Server-Timing: conn}) and, after
 * {@code bench.db.connection-timeout-ms}, fail with 503 {@code db_pool_exhausted}. Returns the order row.
 */
@Component
public class DbSmallScenario implements Scenario {

    static final String ID = "db-small";

    private final Orders orders;

    public DbSmallScenario(Orders orders) {
        this.orders = orders;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Orders.Order call(ScenarioRequest request) throws SQLException {
        long ms = request.wholeNumber("ms", 0, SleepScenario.MAX_MS);
        return orders.readRecorded(orders.nextOrderId(), ms, RequestPhases.current());
    }
}
