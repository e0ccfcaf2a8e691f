def spec = new File(basedir, 'retry.yml').canonicalPath
def log = new File(basedir, 'build.log').text
assert log.contains("${spec} is not a valid retry spec (4 problems):")
assert log.contains("${spec}:6:12 [bad-duration] defaults.delays[0]: '10' has no unit")
assert log.contains("${spec}:10:9 [handler-required] services.email.routingKeys[0]: 'order.*' has wildcards")
assert log.contains("${spec}:11:5 [unknown-key] services.email.maxAttemps: 'maxAttemps' is not a service key; did you mean 'maxAttempts'?")
assert log.contains("${spec}:12:3 [bad-service-name] services.Finance: 'Finance' is not a service name")
assert !new File(basedir, 'target/generated-sources/retry').exists()
assert !new File(basedir, 'target/generated-resources/retry').exists()
return true
