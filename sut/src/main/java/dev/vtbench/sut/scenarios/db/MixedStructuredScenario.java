package dev.vtbench.sut.scenarios.db;

import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Subtask;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.scenarios.Scenario;
import dev.vtbench.sut.scenarios.ScenarioRequest;
import dev.vtbench.sut.scenarios.UpstreamException;
import dev.vtbench.sut.web.RequestPhases;

/**
 * {@code mixed-structured}: the calls of {@link MixedScenario} with JDK 25's structured concurrency
 * ({@code StructuredTaskScope.open()}, JEP 505, a preview API: {@code --enable-preview}). Two subtasks in
 * parallel: (order query, then the user call with its user id) and the logistics call; the executor's
 * thread waits in {@code join()}. So exec ≈ max(dbMs + userMs, logisticsMs) = max(50 + 100, 80) = 150 ms
 * for the study's values, not the 100 ms ("the longest query") the study states: its own code forks the
 * user call with {@code orderTask.get().getUserId()}, which needs the order first (and calling
 * {@code get()} on an unjoined subtask throws in JDK 21+, so that code could not run as printed).
 * <p>
 * The subtasks run on new virtual threads (the scope's default thread factory) whatever the variant's
 * executor is. The default joiner fails the scope when a subtask fails, cancelling the other; the first
 * failing subtask's exception is rethrown as is ({@link DbUnavailableException} → 503, {@link UpstreamException}
 * → 502), so when both branches fail the answer is whichever failed first. A missing database is checked
 * before forking (always 503 {@code db_not_configured}). Same query parameters, result and {@code Server-Timing} phases as {@code mixed}
 * ({@link OrderDetails}).
 */
@Component
public class MixedStructuredScenario implements Scenario {

    static final String ID = "mixed-structured";

    private record OrderAndUser(Orders.Order order, OrderDetails.User user) {
    }

    private final OrderDetails details;

    public MixedStructuredScenario(OrderDetails details) {
        this.details = details;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public OrderDetails.Detail call(ScenarioRequest request) throws Exception {
        OrderDetails.Params p = OrderDetails.Params.of(request);
        details.requireDatabase(); // before forking: without a database the answer is always 503, never a race with logistics
        RequestPhases phases = RequestPhases.current(); // thread-local of this thread: passed to the forks explicitly
        int orderId = details.nextOrderId();
        try (var scope = StructuredTaskScope.open()) {
            Subtask<OrderAndUser> orderThenUser = scope.fork(() -> {
                Orders.Order order = details.order(orderId, p.dbMs(), phases);
                return new OrderAndUser(order, details.user(order.userId(), p.userMs(), phases));
            });
            Subtask<OrderDetails.Logistics> logistics = scope.fork(() -> details.logistics(orderId, p.logisticsMs(), phases));
            scope.join();
            return new OrderDetails.Detail(orderThenUser.get().order(), orderThenUser.get().user(), logistics.get());
        } catch (StructuredTaskScope.FailedException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
