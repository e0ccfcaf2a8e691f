assert !new File(basedir, 'target/generated-sources/retry').exists()
assert !new File(basedir, 'target/generated-resources/retry').exists()
assert new File(basedir, 'build.log').text.contains('Skipping retry topology generation (retry.skip)')
return true
