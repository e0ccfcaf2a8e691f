package com.acme.media;

import java.util.List;

/** What the README's handler calls. */
interface Cdn {

    void purge(String photo);

    void purgeAll(List<String> photos);
}
