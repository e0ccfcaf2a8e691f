package io.github.retrytopology.operations.plan;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.adopt.AdoptionJson;
import io.github.retrytopology.operations.adopt.AdoptionRecord;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import io.github.retrytopology.operations.broker.BrokerAccess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a migration refuses before it reads a broker: a record it must not act on, or a spec it does not fit. */
class AdoptionMigrationTest {

    private static final Path SNEAKERS = Path.of("src/test/resources/adopt/001-sneakers");
    private static final BrokerAccess NOWHERE = BrokerAccess.of(List.of("http://127.0.0.1:1"),
            List.of("amqp://127.0.0.1:1"), Optional.empty(), Optional.empty());

    @Test
    void theDraftAndItsRecordFitEachOther() throws Exception {
        assertThatCode(() -> AdoptionMigration.of(NOWHERE, spec(draft()), record())).doesNotThrowAnyException();
    }

    @Test
    void aRecordThatListsProblemsIsNeverMigrated() throws Exception {
        AdoptionRecord record = record();
        AdoptionRecord halfUnderstood = new AdoptionRecord(record.schema(), record.vhost(), record.source(),
                record.brokerVersion(), record.spec(), record.exchange(), record.services(), record.queues(),
                record.replaced(), record.unmapped(), List.of(new Listed("queue", "orders",
                        "dead-letters to two exchanges")));

        assertThatThrownBy(() -> AdoptionMigration.of(NOWHERE, spec(draft()), halfUnderstood))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lists 1 problem(s), and a topology understood half-way is never migrated")
                .hasMessageContaining("queue 'orders': dead-letters to two exchanges");
    }

    @Test
    void aSpecOfAnotherVirtualHostIsRefused() throws Exception {
        assertThatThrownBy(() -> AdoptionMigration.of(NOWHERE, spec(draft().replace("vhost: '/'", "vhost: shop")),
                record()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the adoption record is of virtual host '/', and the spec's is 'shop'");
    }

    @Test
    void aDraftChangedSoThatItNoLongerKeepsTheWorkQueueIsRefused() throws Exception {
        String moved = draft().replace("    queue: worker_queue\n", "");

        assertThatThrownBy(() -> AdoptionMigration.of(NOWHERE, spec(moved), record()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the spec has no service 'worker-queue' consuming worker_queue")
                .hasMessageContaining("was the draft changed after it was adopted?");
    }

    private static String draft() throws Exception {
        return Files.readString(SNEAKERS.resolve("retry.yml"));
    }

    private static RetrySpec spec(String text) throws Exception {
        return Specs.parse(text.getBytes(StandardCharsets.UTF_8), "retry.yml");
    }

    private static AdoptionRecord record() throws Exception {
        return AdoptionJson.read(SNEAKERS.resolve("retry.adoption.json"));
    }
}
