package io.github.retrytopology.operations.adopt;

import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.problem.Problem;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import io.github.retrytopology.operations.adopt.Drafter.Drafted;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Drafts the {@code retry.yml} that replaces the retry topology a virtual host runs, and the record a migration
 * onto it reads.
 *
 * <pre>{@code
 * Definitions definitions = Definitions.read(Path.of("definitions.json"), Optional.of("shop"));
 * Adoption adoption = Adopter.adopt(definitions, AdoptOptions.defaults().javaPackage("com.acme.shop.retry"));
 * AdoptionFiles.write(Path.of("retry.yml"), adoption);
 * }</pre>
 *
 * <p>It follows the virtual host's messages through its bindings and dead-letter settings to find the work queues,
 * their wait queues, their failed queues and the delayed-message exchanges they use; names never decide.
 * The draft is checked by the model's own validator before it is handed back: any problem it finds is listed with
 * the others, at the draft's line and column.
 */
public final class Adopter {

    private Adopter() {
    }

    /** Drafts the spec of these definitions. */
    public static Adoption adopt(Definitions definitions, AdoptOptions options) {
        Layout layout = Layout.of(definitions);
        Drafted drafted = Drafter.draft(layout, Detector.detect(layout), options);
        String spec = DraftYaml.print(drafted.draft());
        AdoptionRecord record = drafted.record();
        if (drafted.draft().services().isEmpty()) {
            return new Adoption(spec, record);
        }
        try {
            Specs.parse(spec.getBytes(StandardCharsets.UTF_8), options.specFile());
            return new Adoption(spec, record);
        } catch (InvalidSpecException e) {
            List<Listed> problems = new ArrayList<>(record.problems());
            for (Problem problem : e.problems()) {
                problems.add(new Listed("spec", problem.position().toString(), "[" + problem.code().id() + "] "
                        + (problem.path().isEmpty() ? "" : problem.path() + ": ") + problem.message()));
            }
            AdoptionRecord checked = new AdoptionRecord(record.schema(), record.vhost(), record.source(),
                    record.brokerVersion(), record.spec(), record.exchange(), record.services(), record.queues(),
                    record.replaced(), record.unmapped(), problems);
            // The list is the draft's last comment, so the positions above it still hold.
            return new Adoption(DraftYaml.print(drafted.draft().withTrailer(Drafter.trailer(record.unmapped(),
                    problems))), checked);
        }
    }
}
