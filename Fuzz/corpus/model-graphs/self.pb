

aIdentitya