package dev.vtbench.sut.scenarios.db;

import java.sql.SQLException;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.scenarios.BadScenarioParameterException;
import dev.vtbench.sut.scenarios.DelayHttpClient;
import dev.vtbench.sut.scenarios.ScenarioRequest;
import dev.vtbench.sut.scenarios.SleepScenario;
import dev.vtbench.sut.web.RequestPhases;

/**
 * The three calls of study 002's order service ({@code queryOrder}, section 4.1): read the order from
 * PostgreSQL ({@link Orders}), call the user service with the order's user id, call the logistics service
 * with the order id. Both remote services are the mock's delay route ({@link DelayHttpClient}); the user
 * id travels in the header {@value #USER_ID_HEADER} (the mock ignores it), so the user call really needs
 * the order read first. {@link MixedScenario} runs them serially, {@link MixedStructuredScenario} with a
 * structured fan-out. Each call's duration is recorded as a {@code Server-Timing} phase:
 * {@code conn} and {@code db} (see {@link Orders.Read}), {@code user}, {@code logistics}.
 */
@Component
public class OrderDetails {

    static final String USER_ID_HEADER = "X-Vtbench-User-Id";

    /**
     * The durations the request asks for, each a required whole number in 0..{@value SleepScenario#MAX_MS}:
     * {@code dbMs} (the order query's pg_sleep), {@code userMs}, {@code logisticsMs} (the mock's delays).
     */
    public record Params(long dbMs, long userMs, long logisticsMs) {
        /** @throws BadScenarioParameterException naming dbMs, userMs or logisticsMs */
        static Params of(ScenarioRequest r) {
            return new Params(r.wholeNumber("dbMs", 0, SleepScenario.MAX_MS), r.wholeNumber("userMs", 0, SleepScenario.MAX_MS),
                    r.wholeNumber("logisticsMs", 0, SleepScenario.MAX_MS));
        }
    }

    public record User(int userId, long delayedMs) {
    }

    public record Logistics(int orderId, long delayedMs) {
    }

    /** The scenario's answer: what the study's {@code buildVO(order, user, logistics)} would combine. */
    public record Detail(Orders.Order order, User user, Logistics logistics) {
    }

    private final Orders orders;
    private final DelayHttpClient http;

    public OrderDetails(Orders orders, DelayHttpClient http) {
        this.orders = orders;
        this.http = http;
    }

    public int nextOrderId() {
        return orders.nextOrderId();
    }

    /** @throws DbUnavailableException {@code db_not_configured} without {@code bench.db.url} */
    public void requireDatabase() {
        orders.requireConfigured();
    }

    /** The order query; records {@code conn} and {@code db}. */
    public Orders.Order order(int orderId, long dbMs, RequestPhases phases) throws SQLException {
        return orders.readRecorded(orderId, dbMs, phases);
    }

    /** The user service call; records {@code user}. */
    public User user(int userId, long ms, RequestPhases phases) {
        long t0 = System.nanoTime();
        User u = new User(userId, http.delay(ms, USER_ID_HEADER, Integer.toString(userId)));
        record(phases, "user", System.nanoTime() - t0);
        return u;
    }

    /** The logistics service call; records {@code logistics}. */
    public Logistics logistics(int orderId, long ms, RequestPhases phases) {
        long t0 = System.nanoTime();
        Logistics l = new Logistics(orderId, http.delay(ms, null, null));
        record(phases, "logistics", System.nanoTime() - t0);
        return l;
    }

    private static void record(RequestPhases phases, String name, long nanos) {
        if (phases != null) {
            phases.phase(name, nanos);
        }
    }
}
