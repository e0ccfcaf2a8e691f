import io.github.retrytopology.model.load.Specs
import io.github.retrytopology.model.topology.Topology
import io.github.retrytopology.runtime.testing.Broker
import java.nio.charset.StandardCharsets
import java.util.concurrent.TimeUnit
import java.util.jar.JarFile

def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('Generated 7 of 7 retry topology files from retry.yml')

def jar = new File(basedir, 'target/media-1.0-SNAPSHOT.jar')
def entries = new JarFile(jar).withCloseable { file -> file.entries().collect { it.name } }
['BOOT-INF/classes/com/acme/media/CdnPurge.class', 'BOOT-INF/classes/com/acme/media/retry/CdnPurgeHandler.class',
 // Spring Boot's jar keeps the application's META-INF at its root, where class path scans find it.
 'META-INF/retry-topology/com.acme.media.retry.properties'].each { assert entries.contains(it) : it }
assert entries.any { it ==~ /BOOT-INF\/lib\/retry-spring-boot-starter-.*\.jar/ }

// The application, run as its users run it, against the tests' broker: its topology imported into a virtual host
// of its own, as its definitions would be, it consumes a message, then stops on SIGTERM.
def broker = Broker.shared()
def vhost = 'it-spring-boot-example-' + UUID.randomUUID().toString().substring(0, 8)
broker.management().createVhost(vhost, broker.username())
try {
    def spec = Specs.parse(new File(basedir, 'retry.yml').bytes, 'retry.yml')
    broker.management().importTopology(Topology.of(spec.inVhost(vhost)))
    def output = new File(basedir, 'application.log')
    def java = new File(System.getProperty('java.home'), 'bin/java').path
    def process = new ProcessBuilder(java, '-jar', jar.path, '--spring.rabbitmq.addresses=' + broker.amqpUri(vhost),
            '--server.port=0')
            .redirectErrorStream(true).redirectOutput(output).start()
    def waitFor = { String text ->
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
        while (!output.text.contains(text)) {
            assert process.alive : "the application stopped before it logged '" + text + "':\n" + output.text
            assert System.nanoTime() < deadline : "the application did not log '" + text + "':\n" + output.text
            Thread.sleep(100)
        }
    }
    try {
        waitFor('Consuming cdn-purge with 4 consumer(s), prefetch 50')
        broker.connectionFactory(vhost).newConnection('publisher').withCloseable { connection ->
            def channel = connection.createChannel()
            channel.confirmSelect()
            channel.basicPublish('media.events', 'photo.deleted', true, null,
                    'photo-42.jpg'.getBytes(StandardCharsets.UTF_8))
            channel.waitForConfirmsOrDie(60_000)
        }
        waitFor('Purged photo-42.jpg')
        // The endpoints the page points at, served over HTTP as the page's properties expose them.
        def port = (output.text =~ /Tomcat started on port (\d+)/)[0][1]
        def health = new URL("http://127.0.0.1:${port}/actuator/health").text
        assert health.contains('"retry":{') && health.contains('"cdn-purge"') : health
        def handled = new URL("http://127.0.0.1:${port}/actuator/metrics/retry.messages").text
        assert handled.contains('"name":"retry.messages"') : handled
    } finally {
        process.destroy()
        assert process.waitFor(30, TimeUnit.SECONDS) : 'the application did not stop on SIGTERM:\n' + output.text
    }
    assert !output.text.contains('ERROR') : output.text
} finally {
    broker.management().deleteVhost(vhost)
}
return true
