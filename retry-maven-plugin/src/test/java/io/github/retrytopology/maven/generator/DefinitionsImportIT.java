package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.topology.Topology;
import io.github.retrytopology.runtime.testing.BrokerTopology;
import io.github.retrytopology.runtime.testing.TestManagement;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generated definitions of every realistic spec, imported into a real RabbitMQ both ways the management API
 * takes them; the broker's own export of the vhost afterwards holds exactly the topology the model describes.
 */
class DefinitionsImportIT {

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"cdn-purge, cluster", "cdn-purge, vhost", "order-platform, cluster", "order-platform, vhost",
        "shared-routing-key, cluster", "shared-routing-key, vhost", "kept-queue, cluster", "kept-queue, vhost"})
    void theBrokerHoldsExactlyWhatTheModelDescribes(String name, String format) throws Exception {
        TestManagement management = broker.management();
        String vhost = broker.name() + "-" + name + "-" + format;
        String text = GoldenFilesTest.text(name).replaceFirst("(?m)^vhost: .*$", "") + "\nvhost: " + vhost + "\n";
        List<GeneratedFile> files = new Generator().render(text,
                new GenerationRequest(Path.of(name + ".yml"), Path.of("/java"), Path.of("/resources"), "test"));
        RetrySpec spec = Specs.parse(text.getBytes(StandardCharsets.UTF_8), name + ".yml");
        try {
            if (format.equals("cluster")) {
                management.importDefinitions(content(files, Resources.DEFINITIONS));
            } else {
                management.createVhost(vhost, broker.broker().username());
                management.importDefinitions(vhost, content(files, Resources.VHOST_DEFINITIONS));
            }

            BrokerTopology.assertHolds(management, Topology.of(spec));
        } finally {
            management.deleteVhost(vhost);
        }
    }

    static String content(List<GeneratedFile> files, String fileName) {
        return files.stream().filter(file -> file.path().endsWith(fileName)).findFirst()
                .map(file -> new String(file.content(), StandardCharsets.UTF_8)).orElseThrow();
    }
}
