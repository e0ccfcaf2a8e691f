package io.github.retrytopology.operations.cli;

import io.github.retrytopology.operations.plan.Plan;
import io.github.retrytopology.operations.plan.PlanJson;
import io.github.retrytopology.operations.plan.PlanTable;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code plan}: what differs between the spec and its virtual host; exits 0 in sync, 2 on drift, 1 on error. */
@Command(name = "plan", description = "Shows, object by object, what differs between the spec and its virtual host, "
        + "changing nothing. Exits 0 in sync, 2 on drift, 1 on error.")
final class PlanCommand implements Callable<Integer> {

    @ParentCommand
    RetryCommand parent;

    @Option(names = "--json", description = "Print the plan as JSON (the plan.json document) instead of a table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Plan plan = TopologyPlanner.of(parent.access()).plan(parent.loadSpec());
        if (json) {
            parent.out().print(PlanJson.write(plan));
        } else {
            PlanTable.lines(plan).forEach(parent.out()::println);
        }
        parent.out().flush();
        return plan.inSync() ? RetryCommand.OK : RetryCommand.DRIFT;
    }
}
