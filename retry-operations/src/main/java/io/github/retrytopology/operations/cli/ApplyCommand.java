package io.github.retrytopology.operations.cli;

import io.github.retrytopology.operations.plan.ApplyOptions;
import io.github.retrytopology.operations.plan.ApplyReport;
import io.github.retrytopology.operations.plan.PlanTable;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code apply}: brings the virtual host in step with the spec; exits 0 when it is then in sync, 2 if not, 1 on error. */
@Command(name = "apply", description = "Creates what is missing, updates policies and adds bindings; with --prune, "
        + "deletes orphans that are empty and unused; with --migrate, recreates queues whose type or arguments differ. "
        + "Exits 0 when the virtual host is then in sync, 2 when something is left, 1 on error.")
final class ApplyCommand implements Callable<Integer> {

    @ParentCommand
    RetryCommand parent;

    @Option(names = "--prune", description = "Delete orphans: queues only when they hold no message and have no "
            + "consumer, with their policies and bindings.")
    boolean prune;

    @Option(names = "--migrate", description = "Recreate queues whose type or arguments differ, moving their messages "
            + "to a temporary queue and back; refused for a queue with consumers.")
    boolean migrate;

    @Override
    public Integer call() throws Exception {
        ApplyReport report = TopologyPlanner.of(parent.access())
                .apply(parent.loadSpec(), new ApplyOptions(prune, migrate), line -> {
                    parent.out().println(line);
                    parent.out().flush();
                });
        if (report.changedNothing()) {
            parent.out().println("changed nothing");
        }
        parent.out().println("now: " + PlanTable.summary(report.after()));
        parent.out().flush();
        return report.after().inSync() ? RetryCommand.OK : RetryCommand.DRIFT;
    }
}
