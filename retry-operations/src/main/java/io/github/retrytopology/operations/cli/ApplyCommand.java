package io.github.retrytopology.operations.cli;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.operations.adopt.AdoptionJson;
import io.github.retrytopology.operations.plan.AdoptionMigration;
import io.github.retrytopology.operations.plan.AdoptionStep;
import io.github.retrytopology.operations.plan.ApplyOptions;
import io.github.retrytopology.operations.plan.ApplyReport;
import io.github.retrytopology.operations.plan.Plan;
import io.github.retrytopology.operations.plan.PlanTable;
import io.github.retrytopology.operations.plan.TopologyPlanner;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code apply}: brings the virtual host in step with the spec; exits 0 when it is then in sync, 2 if not, 1 on error. */
@Command(name = "apply", description = "Creates what is missing, updates policies and adds bindings; with --prune, "
        + "deletes orphans that are empty and unused; with --migrate, recreates queues whose type or arguments differ; "
        + "with --adoption, migrates from the topology adopt read, moving its messages. Exits 0 when the virtual host "
        + "is then in sync, 2 when something is left, 1 on error.")
final class ApplyCommand implements Callable<Integer> {

    @ParentCommand
    RetryCommand parent;

    @Spec
    CommandSpec command;

    @Option(names = "--prune", description = "Delete orphans: queues only when they hold no message and have no "
            + "consumer, with their policies and bindings.")
    boolean prune;

    @Option(names = "--migrate", description = "Recreate queues whose type or arguments differ, moving their messages "
            + "to a temporary queue and back; refused for a queue with consumers.")
    boolean migrate;

    @Option(names = "--adoption", paramLabel = "FILE", description = "The adoption record that adopt wrote beside the "
            + "spec (retry.adoption.json): put the spec's topology up beside the old one, move the old queues' "
            + "messages into it with their attempts, then remove the old bindings; refused while an old queue has a "
            + "consumer.")
    Path adoption;

    @Option(names = "--delete-old", description = "With --adoption: delete the old queues once empty and unused, then "
            + "the old exchanges no binding uses, and the old policies.")
    boolean deleteOld;

    @Override
    public Integer call() throws Exception {
        if (deleteOld && adoption == null) {
            throw new ParameterException(command.commandLine(), "--delete-old goes with --adoption");
        }
        RetrySpec spec = parent.loadSpec();
        Consumer<String> progress = line -> {
            parent.out().println(line);
            parent.out().flush();
        };
        if (adoption != null) {
            List<AdoptionStep> steps = AdoptionMigration.of(parent.access(), spec, AdoptionJson.read(adoption))
                    .apply(deleteOld, progress);
            Plan after = TopologyPlanner.of(parent.access()).plan(spec);
            PlanTable.adoption(adoption.toString(), steps).forEach(parent.out()::println);
            parent.out().println("now: " + PlanTable.summary(after));
            parent.out().flush();
            return after.inSync() && AdoptionStep.finished(steps) ? RetryCommand.OK : RetryCommand.DRIFT;
        }
        ApplyReport report = TopologyPlanner.of(parent.access()).apply(spec, new ApplyOptions(prune, migrate), progress);
        if (report.changedNothing()) {
            parent.out().println("changed nothing");
        }
        parent.out().println("now: " + PlanTable.summary(report.after()));
        parent.out().flush();
        return report.after().inSync() ? RetryCommand.OK : RetryCommand.DRIFT;
    }
}
