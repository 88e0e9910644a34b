package dev.vtbench.sut.scenarios.db;

import java.sql.SQLException;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.scenarios.Scenario;
import dev.vtbench.sut.scenarios.ScenarioRequest;
import dev.vtbench.sut.web.RequestPhases;

/**
 * {@code mixed}: study 002's order service (section 4.1) serially on the executor's thread: the order
 * query ({@code dbMs}), then the user service ({@code userMs}, with the order's user id), then logistics
 * ({@code logisticsMs}); exec ≈ dbMs + userMs + logisticsMs (230 ms in the study). Query parameters and
 * {@code Server-Timing} phases: {@link OrderDetails}. Returns {@link OrderDetails.Detail}.
 */
@Component
public class MixedScenario implements Scenario {

    static final String ID = "mixed";

    private final OrderDetails details;

    public MixedScenario(OrderDetails details) {
        this.details = details;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public OrderDetails.Detail call(ScenarioRequest request) throws SQLException {
        OrderDetails.Params p = OrderDetails.Params.of(request);
        RequestPhases phases = RequestPhases.current();
        Orders.Order order = details.order(details.nextOrderId(), p.dbMs(), phases);
        OrderDetails.User user = details.user(order.userId(), p.userMs(), phases);
        OrderDetails.Logistics logistics = details.logistics(order.id(), p.logisticsMs(), phases);
        return new OrderDetails.Detail(order, user, logistics);
    }
}
