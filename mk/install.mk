# make install (written next)
