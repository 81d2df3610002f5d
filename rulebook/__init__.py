"""The site around the engine and the tools: what the live server adds to Voilà.

``rulescore`` is the pure rules engine and ``widgets`` the tools over it (DESIGN §1); this
package holds the live book's server-side pieces, which use both and which neither uses.
"""
