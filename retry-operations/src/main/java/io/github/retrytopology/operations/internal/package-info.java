/** What the operations' own packages share and no one else should use: a failure as the broker worded it. Not exported. */
package io.github.retrytopology.operations.internal;
