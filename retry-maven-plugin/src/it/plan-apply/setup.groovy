// Makes a vhost of this build's own on the test broker, and the specs that name it. The broker is the one the
// tests find (retry-runtime's testing.Broker): RETRY_TEST_MANAGEMENT_URI, the local one, or a node of the tests'
// own, which lives as long as this Maven run; verify.groovy reads its URI from broker.txt.
import groovy.json.JsonOutput
import io.github.retrytopology.runtime.testing.Broker

def management = Broker.shared().managementUri()
new File(basedir, 'broker.txt').text = management.toString()
def credentials = management.userInfo.split(':', 2)
def base = "${management.scheme}://${management.host}:${management.port}"
def vhost = 'retry-plugin-it-' + UUID.randomUUID().toString().substring(0, 8)

def call = { String method, String path, Object body ->
    def connection = (HttpURLConnection) new URL("${base}/${path}").openConnection()
    connection.requestMethod = method
    connection.setRequestProperty('Authorization', 'Basic ' + "${credentials[0]}:${credentials[1]}".bytes.encodeBase64())
    connection.setRequestProperty('Content-Type', 'application/json')
    connection.doOutput = true
    connection.outputStream.withWriter { it << JsonOutput.toJson(body) }
    assert connection.responseCode < 300: "${method} ${path} answered ${connection.responseCode}: is there a broker at ${base}?"
}
call('PUT', "api/vhosts/${vhost}", [:])
call('PUT', "api/permissions/${vhost}/${credentials[0]}", [configure: '.*', write: '.*', read: '.*'])

def spec = """\
version: 1
package: com.acme.orders.retry
vhost: ${vhost}
exchange: orders.events
defaults:
  maxAttempts: 3
  delays: [10s, 1m]
services:
  email:
    routingKeys: [order.created]
"""
new File(basedir, 'retry.yml').text = spec
new File(basedir, 'drifted.yml').text = spec + """\
  finance:
    routingKeys: [order.refunded]
"""
new File(basedir, 'vhost.txt').text = vhost
def config = "-Dretry.managementUri=${base}\n"
if (credentials[0] != 'guest' || credentials[1] != 'guest') {
    config += "-Dretry.it.server=\n-Dretry.username=${credentials[0]}\n-Dretry.password=${credentials[1]}\n"
}
new File(basedir, '.mvn').mkdirs()
new File(basedir, '.mvn/maven.config').text = config
return true
