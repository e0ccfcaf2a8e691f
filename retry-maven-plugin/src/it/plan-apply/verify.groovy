// The plan, the apply, the plan in sync and the failing plan of a drifted spec; then the vhost goes.
import groovy.json.JsonSlurper

def management = URI.create(new File(basedir, 'broker.txt').text)
def credentials = management.userInfo.split(':', 2)
def base = "${management.scheme}://${management.host}:${management.port}"
def vhost = new File(basedir, 'vhost.txt').text
def call = { String method, String path ->
    def connection = (HttpURLConnection) new URL("${base}/${path}").openConnection()
    connection.requestMethod = method
    connection.setRequestProperty('Authorization', 'Basic ' + "${credentials[0]}:${credentials[1]}".bytes.encodeBase64())
    return connection
}
try {
    def queues = new JsonSlurper().parse(call('GET', "api/queues/${vhost}").inputStream)*.name.sort()
    assert queues == ['email', 'email.parking-lot', 'email.retry.1', 'email.retry.2']

    def log = new File(basedir, 'build.log').text
    assert log.contains("for exchange 'orders.events': 10 to create")
    assert log.contains('done: queue email.parking-lot: created')
    assert log.contains("for exchange 'orders.events': in sync (10 objects)")
    assert log.contains('The broker is not in sync with drifted.yml: 9 to create, 10 in sync')
    assert !log.contains(credentials[1] + '@')

    def plan = new JsonSlurper().parse(new File(basedir, 'target/retry/plan.json'))
    assert plan.schema == 1
    assert plan.vhost == vhost
    assert !plan.inSync
    assert plan.summary.create == 9
    assert plan.entries.find { it.name == 'finance.parking-lot' && it.kind == 'queue' }.action == 'create'
    assert !new File(basedir, 'target/retry/plan.json').text.contains('guest')
} finally {
    call('DELETE', "api/vhosts/${vhost}").responseCode
}
return true
