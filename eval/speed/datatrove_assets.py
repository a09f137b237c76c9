"""datatrove's asset cache filled from the repository's copies, so that its blocks download
nothing (the machines the speed scripts run on have no internet): each file under the name
datatrove derives from its URL, with the marker that says it is complete."""

import os
import shutil

# (namespace, subfolder, file name datatrove derives from the URL, the repository's copy)
LID_176 = ("lid", "ft176",
           "https:__dl.fbaipublicfiles.com_fasttext_supervised-models_lid.176.bin",
           os.path.join("models", "lid.176.ftz"))
LDNOOBW_EN = ("filters", "c4_badwords",
              "https:__raw.githubusercontent.com_LDNOOBW_List-of-Dirty-Naughty-Obscene-and-"
              "Otherwise-Bad-Words_25e679f03d96baa721cde20db9944649e8d0a844_en",
              os.path.join("lists", "ldnoobw", "en"))


def fill_offline_cache(repository, home, assets):
    """Copies `assets` from `repository` into datatrove's cache in the folder `home`, and points
    HF_HOME there with the Hub and tldextract's list download off."""
    for namespace, subfolder, name, copy in assets:
        cache = os.path.join(home, "assets", "datatrove", namespace, subfolder)
        os.makedirs(cache, exist_ok=True)
        shutil.copy(os.path.join(repository, copy), os.path.join(cache, name))
        open(os.path.join(cache, name + ".completed"), "w").close()
    os.environ["HF_HOME"] = home
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS"] = ""
