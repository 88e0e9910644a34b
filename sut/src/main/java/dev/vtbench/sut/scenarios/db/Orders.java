package dev.vtbench.sut.scenarios.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.web.RequestPhases;

/**
 * The study's order table, read with a query that takes a chosen time on the server. Schema (the
 * harness seeds it; the Java tests seed it the same way):
 * {@code CREATE TABLE orders (id integer PRIMARY KEY, user_id integer NOT NULL, status text NOT NULL)},
 * ids 1..{@value #ORDER_COUNT}, {@code user_id = id % 1000 + 1}, {@code status = 'PAID'}.
 * <p>
 * One read = one pooled connection ({@link DbPool}) for one statement,
 * {@value #QUERY}, with {@code pg_sleep(ms / 1000.0)}: the server holds the connection for ms, like a
 * slow query. Order ids go round-robin over the table ({@link #nextOrderId()}).
 */
@Component
public class Orders {

    public static final int ORDER_COUNT = 10_000;

    /** pg_sleep in the target list runs once per row, and the primary key selects one row. */
    static final String QUERY = "SELECT user_id, status, pg_sleep(?) FROM orders WHERE id = ?";

    /** One row of {@code orders}. */
    public record Order(int id, int userId, String status) {
    }

    /**
     * A read and its timings.
     *
     * @param connNanos waiting for a pooled connection (grows when the pool is the limit)
     * @param dbNanos   connection wait + the statement, until the connection is returned
     */
    public record Read(Order order, long connNanos, long dbNanos) {
    }

    private final DbPool pool;
    private final AtomicLong next = new AtomicLong();

    public Orders(DbPool pool) {
        this.pool = pool;
    }

    /** @throws DbUnavailableException {@code db_not_configured} without {@code bench.db.url} */
    public void requireConfigured() {
        pool.requireConfigured();
    }

    /** 1..{@value #ORDER_COUNT}, round-robin over the calls of all threads. */
    public int nextOrderId() {
        return (int) Math.floorMod(next.getAndIncrement(), (long) ORDER_COUNT) + 1;
    }

    /**
     * Reads order {@code id} with a query that sleeps {@code sleepMs} on the server.
     *
     * @throws DbUnavailableException not configured, or pool exhausted ({@link DbPool#connection()})
     * @throws SQLException           the statement failed
     * @throws IllegalStateException  when the order does not exist (the table is not seeded as above;
     *                                no row would also mean no sleep, so this is never ignored)
     */
    public Read read(int id, long sleepMs) throws SQLException {
        long t0 = System.nanoTime();
        long connNanos;
        Order order;
        try (Connection c = pool.connection()) {
            connNanos = System.nanoTime() - t0;
            try (PreparedStatement ps = c.prepareStatement(QUERY)) {
                ps.setDouble(1, sleepMs / 1000.0);
                ps.setInt(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("order " + id + " not found: the orders table must hold ids 1.."
                                + ORDER_COUNT + " (see Orders.java for the schema the harness seeds)");
                    }
                    order = new Order(id, rs.getInt(1), rs.getString(2));
                }
            }
        }
        return new Read(order, connNanos, System.nanoTime() - t0);
    }

    /** {@link #read} and records its {@code conn} and {@code db} phases on {@code phases} (when not null). */
    public Order readRecorded(int id, long sleepMs, RequestPhases phases) throws SQLException {
        Read r = read(id, sleepMs);
        if (phases != null) {
            phases.phase("conn", r.connNanos());
            phases.phase("db", r.dbNanos());
        }
        return r.order();
    }
}
