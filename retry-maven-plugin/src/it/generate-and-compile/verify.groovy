def generated = new File(basedir, 'target/generated-sources/retry/com/acme/orders/retry')
assert new File(generated, 'RetryTopology.java').isFile()
assert new File(generated, 'EmailHandler.java').isFile()
assert new File(generated, 'FinanceHandler.java').isFile()

def classes = new File(basedir, 'target/classes')
assert new File(classes, 'com/acme/orders/Email.class').isFile()
assert new File(classes, 'com/acme/orders/retry/RetryTopology.class').isFile()
assert new File(classes, 'com/acme/orders/retry/definitions.json').isFile()
assert new File(classes, 'com/acme/orders/retry/definitions.vhost.json').isFile()
assert new File(classes, 'com/acme/orders/retry/topology.md').isFile()
assert new File(classes, 'com/acme/orders/retry/retry.schema.json').isFile()
assert new File(classes, 'META-INF/retry-topology/com.acme.orders.retry.properties').isFile()

// Both builds write to one log: the first generates, the second finds everything up to date.
def log = new File(basedir, 'build.log').text
assert log.count('BUILD SUCCESS') == 2
assert log.count('Generated 8 of 8 retry topology files from retry.yml') == 1
assert log.count('The class retry.yml names is on the class path') == 2
assert !log.contains('[WARNING]')
return true
