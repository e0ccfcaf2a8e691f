def resources = new File(basedir, 'target/generated-resources/retry/com/acme/shop/retry/kubernetes.yaml')
assert resources.isFile()
def text = resources.text
def kinds = (text =~ /(?m)^kind: (\w+)$/).collect { it[1] }
assert kinds.countBy { it } == [Vhost: 1, Exchange: 1, Queue: 8, Policy: 8, Binding: 2, Permission: 1]
def names = (text =~ /(?m)^metadata:\n  name: "([^"]+)"$/).collect { it[1] }
assert names.size() == kinds.size()
assert names.every { it.startsWith('shop-') && it ==~ /[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/ }
assert names.contains('shop-warehouse.order.star')
assert text.contains('    "app.kubernetes.io/part-of": "shop"\n    "team": "fulfilment"\n')
assert text.contains('  namespace: "shop"\n')
assert new File(basedir, 'target/generated-resources/retry/com/acme/shop/retry/definitions.json').isFile()

def log = new File(basedir, 'build.log').text
assert log.contains("kubernetesNamePrefix 'Shop_' cannot start a Kubernetes resource name")
// The failed build wrote nothing: the resources still carry the first build's prefix.
assert !text.contains('Shop_')
return true
