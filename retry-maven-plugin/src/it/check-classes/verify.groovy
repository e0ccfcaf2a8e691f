// The project compiled (the payload class exists), then retry:check-classes refused the classes retry.yml names,
// each at its line and column, with the class meant; the two that exist passed.
def spec = new File(basedir, 'retry.yml').canonicalPath
def log = new File(basedir, 'build.log').text
assert new File(basedir, 'target/classes/com/acme/orders/Payment.class').isFile()
assert log.contains("${spec} is not a valid retry spec (4 problems):")
assert log.contains("${spec}:7:18 [unknown-class] defaults.nonRetryable[0]: there is no non-retryable exception 'java.lang.IllegalArgumentExeption' on the class path; did you mean 'java.lang.IllegalArgumentException'?")
assert log.contains("${spec}:15:9 [unknown-class] services.email.nonRetryable[0]: there is no non-retryable exception 'com.acme.orders.PaymentDeclinedExeption' on the class path; did you mean 'com.acme.orders.PaymentDeclinedException'?")
assert log.contains("${spec}:16:9 [unknown-class] services.email.nonRetryable[1]: there is no non-retryable exception 'com.acme.PaymentDeclinedException' on the class path; did you mean 'com.acme.orders.PaymentDeclinedException'?")
assert log.contains("${spec}:17:9 [not-throwable] services.email.nonRetryable[2]: 'com.acme.orders.Payment' is a record, not an exception")
assert log =~ /check-classes \(default\) @ check-classes/
return true
