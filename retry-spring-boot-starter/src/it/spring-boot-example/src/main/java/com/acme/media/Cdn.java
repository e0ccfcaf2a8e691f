package com.acme.media;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** The CDN's client; here it logs what it would purge. */
@Component
class Cdn {

    private static final Logger log = LoggerFactory.getLogger(Cdn.class);

    void purge(String photo) {
        log.info("Purged {}", photo);
    }

    void purgeAll(List<String> photos) {
        photos.forEach(this::purge);
    }
}
