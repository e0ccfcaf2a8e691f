def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('Generated 7 of 7 retry topology files from retry.yml')
assert log.contains('The class retry.yml names is on the class path')

def jar = new java.util.jar.JarFile(new File(basedir, 'target/media-1.0-SNAPSHOT.jar'))
try {
    ['com/acme/media/CdnPurge.class', 'com/acme/media/retry/CdnPurgeHandler.class',
     'com/acme/media/retry/RetryTopology.class', 'com/acme/media/retry/definitions.json',
     'com/acme/media/retry/definitions.vhost.json', 'com/acme/media/retry/topology.md',
     'com/acme/media/retry/retry.schema.json',
     'META-INF/retry-topology/com.acme.media.retry.properties'].each { assert jar.getEntry(it) != null : it }
} finally {
    jar.close()
}
return true
