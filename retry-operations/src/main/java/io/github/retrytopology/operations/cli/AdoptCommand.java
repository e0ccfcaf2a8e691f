package io.github.retrytopology.operations.cli;

import io.github.retrytopology.model.topology.BrokerVersion;
import io.github.retrytopology.operations.adopt.AdoptOptions;
import io.github.retrytopology.operations.adopt.Adopter;
import io.github.retrytopology.operations.adopt.Adoption;
import io.github.retrytopology.operations.adopt.AdoptionFiles;
import io.github.retrytopology.operations.adopt.AdoptionRecord;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import io.github.retrytopology.operations.adopt.AdoptionRecord.OldQueue;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Role;
import io.github.retrytopology.operations.adopt.AdoptionRecord.ServiceRecord;
import io.github.retrytopology.operations.adopt.Definitions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code adopt}: drafts the retry.yml of a virtual host's hand-rolled retry topology; exits 0 when it understood the
 * whole virtual host, 2 when it listed something as unmapped or as a problem (the draft is written all the same), 1
 * on error (nothing is written).
 */
@Command(name = "adopt", description = "Drafts the retry.yml that replaces the retry topology a virtual host runs "
        + "today, read from the broker's management API or from a definitions file, and the adoption record beside "
        + "it (NAME.adoption.json). Changes nothing on the broker. Exits 0 when it understood the whole virtual host, "
        + "2 when it lists something as unmapped or as a problem (both files are written all the same), 1 on error "
        + "(nothing is written).")
final class AdoptCommand implements Callable<Integer> {

    @ParentCommand
    RetryCommand parent;

    @Option(names = "--vhost", paramLabel = "VHOST", description = "The virtual host to adopt (default: the one the "
            + "--uri values name, else /). A file of every virtual host's definitions needs it when it holds several.")
    String vhost;

    @Option(names = "--definitions", paramLabel = "FILE", description = "Read this definitions file, as "
            + "GET /api/definitions (every virtual host) or GET /api/definitions/VHOST (one) exports it, instead of "
            + "the broker.")
    Path definitions;

    @Option(names = "--out", defaultValue = "retry.yml", paramLabel = "FILE", description = "Where to write the draft "
            + "(default: ${DEFAULT-VALUE}); the record goes beside it, retry.adoption.json for retry.yml.")
    Path out;

    @Option(names = "--package", paramLabel = "PACKAGE", description = "The Java package of the generated code "
            + "(default: one made from the virtual host's name, which the draft marks as assumed).")
    String javaPackage;

    @Option(names = "--for-version", paramLabel = "VERSION", description = "The RabbitMQ version the spec will run "
            + "on (default: the one the definitions came from). From 4.3.1, a service that retried through a "
            + "delayed-message exchange is drafted with delayBy: broker.")
    String forVersion;

    @Option(names = "--force", description = "Replace the draft and its record where they exist already.")
    boolean force;

    @Override
    public Integer call() throws Exception {
        Optional<String> named = Optional.ofNullable(vhost).or(parent::uriVhost);
        Definitions read = definitions != null ? Definitions.read(definitions, named)
                : Definitions.fetch(parent.access().managementApi(), named.orElse(Definitions.DEFAULT_VHOST));
        AdoptOptions options = AdoptOptions.defaults().specFile(out.getFileName().toString());
        if (javaPackage != null) {
            options = options.javaPackage(javaPackage);
        }
        if (forVersion != null) {
            options = options.brokerVersion(BrokerVersion.parse(forVersion));
        }
        Adoption adoption = Adopter.adopt(read, options);
        AdoptionFiles.write(out, adoption, force);
        report(read, adoption);
        return adoption.clean() ? RetryCommand.OK : RetryCommand.DRIFT;
    }

    private void report(Definitions read, Adoption adoption) {
        PrintWriter out = parent.out();
        AdoptionRecord record = adoption.record();
        out.printf("adopted virtual host '%s' from %s: %s%n", read.vhost(), read.source(),
                count(record.services().size(), "service"));
        for (ServiceRecord service : record.services()) {
            List<OldQueue> queues = record.queues().stream().filter(queue -> queue.service().equals(service.service()))
                    .toList();
            out.printf("  %s: queue %s, %s, %s, maxAttempts %d%n", service.service(), service.queue(),
                    count(queues.stream().filter(queue -> queue.role() == Role.WAIT).count(), "wait queue"),
                    count(queues.stream().filter(queue -> queue.role() == Role.FAILED).count(), "failed queue"),
                    service.maxAttempts());
        }
        long assumed = adoption.spec().lines().filter(line -> line.stripLeading().startsWith("# assumed:")).count();
        out.printf("wrote %s and %s%s%n", this.out, AdoptionFiles.recordPath(this.out),
                assumed == 0 ? "" : "; check the " + count(assumed, "line") + " marked \"assumed:\"");
        list(out, "unmapped", record.unmapped());
        list(out, "problems", record.problems());
        if (!adoption.hasServices()) {
            out.println("no retry structure found: the draft holds comments only, and is no spec yet");
        }
        out.flush();
    }

    private static void list(PrintWriter out, String title, List<Listed> listed) {
        if (listed.isEmpty()) {
            return;
        }
        out.printf("%s (%d):%n", title, listed.size());
        listed.forEach(item -> out.println("  " + item));
    }

    private static String count(long count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
