package dev.vtbench.sut.scenarios.db;

import java.sql.SQLException;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.scenarios.Scenario;
import dev.vtbench.sut.scenarios.ScenarioRequest;
import dev.vtbench.sut.scenarios.SleepScenario;
import dev.vtbench.sut.web.RequestPhases;

/**
 * {@code db-small-synchronized}: {@code db-small} inside a {@code synchronized} block, the study's
 * pitfall (section 10.1: {@code public synchronized Order getOrder(Long id)} on its {@code OrderService}).
 * <p>
 * The monitor is this bean, a Spring singleton: ONE lock shared by every request, exactly as a
 * {@code synchronized} method on a singleton service. So the queries run one at a time, whatever the
 * executor and the pool size: throughput ≤ 1 / ms (200 req/s at 5 ms), and everyone else waits for the
 * monitor ({@code Server-Timing: lock}, part of exec). What differs by JDK is what waiting costs a virtual
 * thread: before JDK 24 the holder pinned its carrier for the whole query and waiters pinned theirs while
 * blocked on the monitor; since JEP 491 (JDK 24) both unmount. JFR {@code jdk.VirtualThreadPinned} events
 * ({@code /bench/pinned}) show which applies on the running JDK. Inside the block it runs {@link DbSmallScenario}:
 * same parameter, result and phases.
 */
@Component
public class DbSmallSynchronizedScenario implements Scenario {

    static final String ID = "db-small-synchronized";

    private final DbSmallScenario dbSmall;

    public DbSmallSynchronizedScenario(DbSmallScenario dbSmall) {
        this.dbSmall = dbSmall;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Orders.Order call(ScenarioRequest request) throws SQLException {
        request.wholeNumber("ms", 0, SleepScenario.MAX_MS); // a bad ms is a 400 before taking the lock
        RequestPhases phases = RequestPhases.current();
        long t0 = System.nanoTime();
        synchronized (this) {
            if (phases != null) {
                phases.phase("lock", System.nanoTime() - t0);
            }
            return dbSmall.call(request);
        }
    }
}
