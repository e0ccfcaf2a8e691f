package io.github.retrytopology.operations.cli;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.operations.adopt.AdoptionJson;
import io.github.retrytopology.operations.plan.AdoptionMigration;
import io.github.retrytopology.operations.plan.AdoptionStep;
import io.github.retrytopology.operations.plan.Plan;
import io.github.retrytopology.operations.plan.PlanJson;
import io.github.retrytopology.operations.plan.PlanTable;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code plan}: what differs between the spec and its virtual host; exits 0 in sync, 2 on drift, 1 on error. */
@Command(name = "plan", description = "Shows, object by object, what differs between the spec and its virtual host, "
        + "changing nothing; with --adoption, also the migration onto the spec from the topology adopt read. Exits 0 "
        + "in sync, 2 on drift or a migration step to take, 1 on error.")
final class PlanCommand implements Callable<Integer> {

    @ParentCommand
    RetryCommand parent;

    @Option(names = "--json", description = "Print the plan as JSON (the plan.json document) instead of a table.")
    boolean json;

    @Option(names = "--adoption", paramLabel = "FILE", description = "The adoption record that adopt wrote beside the "
            + "spec (retry.adoption.json): also show the migration onto the spec, step by step, with the messages "
            + "of each old queue counted live.")
    Path adoption;

    @Override
    public Integer call() throws Exception {
        RetrySpec spec = parent.loadSpec();
        List<AdoptionStep> steps = adoption == null ? List.of()
                : AdoptionMigration.of(parent.access(), spec, AdoptionJson.read(adoption)).plan();
        Plan plan = TopologyPlanner.of(parent.access()).plan(spec);
        if (json) {
            parent.out().print(adoption == null ? PlanJson.write(plan) : PlanJson.write(plan, steps));
        } else {
            PlanTable.lines(plan).forEach(parent.out()::println);
            if (adoption != null) {
                PlanTable.adoption(adoption.toString(), steps).forEach(parent.out()::println);
            }
        }
        parent.out().flush();
        return plan.inSync() && AdoptionStep.finished(steps) ? RetryCommand.OK : RetryCommand.DRIFT;
    }
}
