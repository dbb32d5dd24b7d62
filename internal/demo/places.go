package demo

import (
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/openprospect/prospectd/record/geo"
)

// countrySpec describes how companies of one country look. Countries not
// listed get countryDefaults and their ISO 3166-2 subdivisions as cities.
type countrySpec struct {
	weight int     // companies per 10,000
	tlds   string  // public suffixes of the country, most used first
	local  float64 // share of companies on a local suffix rather than .com
	langs  string  // site languages, primary first
	legal  string  // legal-form suffixes, semicolon-separated
	zip    string  // postal code pattern: # digit, @ letter; "" none
	street string  // street style, see streetStyles
	// cities: "City|STATE-CODE|zip prefix|weight" separated by ";"; the
	// state codes are geo's (a test checks them).
	cities string
}

var countrySpecs = map[string]countrySpec{
	"US": {2900, "us", 0.02, "en", "Inc.;LLC;Corp.;Inc.", "#####", "en",
		"New York|US-NY|100|12;Brooklyn|US-NY|112|3;Los Angeles|US-CA|900|7;San Francisco|US-CA|941|6;San Jose|US-CA|951|3;" +
			"San Diego|US-CA|921|3;Oakland|US-CA|946|1;Irvine|US-CA|926|2;Palo Alto|US-CA|943|2;Sacramento|US-CA|958|1;" +
			"Seattle|US-WA|981|4;Bellevue|US-WA|980|1;Portland|US-OR|972|2;Denver|US-CO|802|3;Boulder|US-CO|803|1;" +
			"Austin|US-TX|787|4;Dallas|US-TX|752|4;Houston|US-TX|770|4;San Antonio|US-TX|782|2;Chicago|US-IL|606|6;" +
			"Boston|US-MA|021|5;Cambridge|US-MA|021|1;Atlanta|US-GA|303|4;Miami|US-FL|331|4;Tampa|US-FL|336|2;" +
			"Orlando|US-FL|328|2;Phoenix|US-AZ|850|3;Scottsdale|US-AZ|852|1;Salt Lake City|US-UT|841|2;Minneapolis|US-MN|554|2;" +
			"Detroit|US-MI|482|2;Philadelphia|US-PA|191|3;Pittsburgh|US-PA|152|2;Washington|US-DC|200|3;Arlington|US-VA|222|1;" +
			"Baltimore|US-MD|212|1;Charlotte|US-NC|282|2;Raleigh|US-NC|276|2;Nashville|US-TN|372|2;Columbus|US-OH|432|2;" +
			"Cleveland|US-OH|441|1;Indianapolis|US-IN|462|1;St. Louis|US-MO|631|1;Kansas City|US-MO|641|1;Las Vegas|US-NV|891|2;" +
			"New Orleans|US-LA|701|1;Milwaukee|US-WI|532|1;Newark|US-NJ|071|1;Jersey City|US-NJ|073|1;Stamford|US-CT|069|1;" +
			"Providence|US-RI|029|1;Omaha|US-NE|681|1;Boise|US-ID|837|1;Albuquerque|US-NM|871|1;Honolulu|US-HI|968|1;" +
			"Anchorage|US-AK|995|1;Louisville|US-KY|402|1;Oklahoma City|US-OK|731|1;Birmingham|US-AL|352|1;Charleston|US-SC|294|1;" +
			"Richmond|US-VA|232|1;Des Moines|US-IA|503|1;Madison|US-WI|537|1;Burlington|US-VT|054|1;Portland|US-ME|041|1;" +
			"Little Rock|US-AR|722|1;Jackson|US-MS|392|1;Wichita|US-KS|672|1;Billings|US-MT|591|1;Fargo|US-ND|581|1;" +
			"Sioux Falls|US-SD|571|1;Cheyenne|US-WY|820|1;Charleston|US-WV|253|1;Wilmington|US-DE|198|1;Manchester|US-NH|031|1"},
	"GB": {600, "co.uk uk", 0.55, "en", "Ltd;Ltd;LLP;plc", "@@# #@@", "en",
		"London|GB-WSM|W1|6;London|GB-CMD|NW1|3;London|GB-ISL|EC1|3;London|GB-TWH|E14|2;London|GB-SWK|SE1|2;" +
			"London|GB-HCK|E8|1;London|GB-LND|EC2|2;Manchester|GB-MAN|M1|3;Birmingham|GB-BIR|B1|2;Leeds|GB-LDS|LS1|2;" +
			"Glasgow|GB-GLG|G1|2;Edinburgh|GB-EDH|EH1|2;Bristol|GB-BST|BS1|2;Liverpool|GB-LIV|L1|1;Cardiff|GB-CRF|CF1|1;" +
			"Belfast|GB-BFS|BT1|1;Cambridge|GB-CAM|CB1|1;Oxford|GB-OXF|OX1|1;Newcastle upon Tyne|GB-NET|NE1|1;" +
			"Sheffield|GB-SHF|S1|1;Nottingham|GB-NGM|NG1|1;Reading|GB-RDG|RG1|1;Brighton|GB-BNH|BN1|1;Leicester|GB-LCE|LE1|1;" +
			"Southampton|GB-STH|SO1|1;Aberdeen|GB-ABE|AB1|1;Milton Keynes|GB-MIK|MK9|1;Canterbury|GB-KEN|CT1|1"},
	"DE": {520, "de", 0.7, "de en", "GmbH;GmbH;AG;GmbH & Co. KG;UG", "#####", "de",
		"Berlin|DE-BE|10|6;Hamburg|DE-HH|20|4;München|DE-BY|80|5;Köln|DE-NW|50|3;Frankfurt am Main|DE-HE|60|3;" +
			"Stuttgart|DE-BW|70|3;Düsseldorf|DE-NW|40|2;Leipzig|DE-SN|04|2;Dortmund|DE-NW|44|1;Essen|DE-NW|45|1;" +
			"Bremen|DE-HB|28|1;Dresden|DE-SN|01|1;Hannover|DE-NI|30|1;Nürnberg|DE-BY|90|1;Karlsruhe|DE-BW|76|1;" +
			"Mannheim|DE-BW|68|1;Bonn|DE-NW|53|1;Münster|DE-NW|48|1;Potsdam|DE-BB|14|1;Mainz|DE-RP|55|1;Kiel|DE-SH|24|1;" +
			"Erfurt|DE-TH|99|1;Saarbrücken|DE-SL|66|1;Rostock|DE-MV|18|1;Magdeburg|DE-ST|39|1"},
	"FR": {380, "fr", 0.6, "fr en", "SAS;SARL;SA;SAS", "#####", "fr",
		"Paris|FR-75|750|8;Boulogne-Billancourt|FR-92|921|1;Lyon|FR-69|690|3;Marseille|FR-13|130|2;Toulouse|FR-31|310|2;" +
			"Nice|FR-06|060|1;Nantes|FR-44|440|2;Strasbourg|FR-67|670|1;Montpellier|FR-34|340|1;Bordeaux|FR-33|330|2;" +
			"Lille|FR-59|590|2;Rennes|FR-35|350|1;Grenoble|FR-38|380|1;Aix-en-Provence|FR-13|131|1;Reims|FR-51|511|1;" +
			"Dijon|FR-21|210|1;Tours|FR-37|370|1;Rouen|FR-76|760|1;Clermont-Ferrand|FR-63|630|1"},
	"IN": {380, "in co.in", 0.4, "en hi", "Pvt Ltd;Pvt Ltd;Ltd;LLP", "######", "en",
		"Mumbai|IN-MH|400|4;Pune|IN-MH|411|2;Bengaluru|IN-KA|560|5;Hyderabad|IN-TS|500|3;Chennai|IN-TN|600|3;" +
			"New Delhi|IN-DL|110|3;Gurugram|IN-HR|122|2;Noida|IN-UP|201|2;Kolkata|IN-WB|700|2;Ahmedabad|IN-GJ|380|1;" +
			"Jaipur|IN-RJ|302|1;Kochi|IN-KL|682|1;Chandigarh|IN-CH|160|1;Indore|IN-MP|452|1;Coimbatore|IN-TN|641|1;Lucknow|IN-UP|226|1"},
	"CA": {330, "ca", 0.45, "en fr", "Inc.;Ltd;Corp.", "@#@ #@#", "en",
		"Toronto|CA-ON|M5V|6;Mississauga|CA-ON|L5B|1;Ottawa|CA-ON|K1P|2;Waterloo|CA-ON|N2L|1;Montréal|CA-QC|H3B|4;" +
			"Québec|CA-QC|G1R|1;Vancouver|CA-BC|V6B|4;Victoria|CA-BC|V8W|1;Calgary|CA-AB|T2P|2;Edmonton|CA-AB|T5J|1;" +
			"Winnipeg|CA-MB|R3C|1;Halifax|CA-NS|B3J|1;Saskatoon|CA-SK|S7K|1;Regina|CA-SK|S4P|1"},
	"AU": {280, "com.au au", 0.6, "en", "Pty Ltd;Pty Ltd;Ltd", "####", "en",
		"Sydney|AU-NSW|20|6;Melbourne|AU-VIC|30|5;Brisbane|AU-QLD|40|3;Perth|AU-WA|60|2;Adelaide|AU-SA|50|1;" +
			"Canberra|AU-ACT|26|1;Hobart|AU-TAS|70|1;Darwin|AU-NT|08|1;Gold Coast|AU-QLD|42|1;Newcastle|AU-NSW|23|1"},
	"NL": {200, "nl", 0.65, "nl en", "B.V.;B.V.;N.V.", "#### @@", "nl",
		"Amsterdam|NL-NH|10|5;Rotterdam|NL-ZH|30|3;Den Haag|NL-ZH|25|2;Utrecht|NL-UT|35|2;Eindhoven|NL-NB|56|2;" +
			"Groningen|NL-GR|97|1;Tilburg|NL-NB|50|1;Almere|NL-FL|13|1;Breda|NL-NB|48|1;Nijmegen|NL-GE|65|1;" +
			"Haarlem|NL-NH|20|1;Enschede|NL-OV|75|1;Maastricht|NL-LI|62|1;Leiden|NL-ZH|23|1;Zwolle|NL-OV|80|1"},
	"ES": {200, "es", 0.55, "es en", "S.L.;S.L.;S.A.", "#####", "es",
		"Madrid|ES-M|280|6;Barcelona|ES-B|080|5;Valencia|ES-V|460|2;Sevilla|ES-SE|410|1;Málaga|ES-MA|290|1;" +
			"Bilbao|ES-BI|480|1;Zaragoza|ES-Z|500|1;Alicante|ES-A|030|1;Palma|ES-PM|070|1;Las Palmas de Gran Canaria|ES-GC|350|1;" +
			"Murcia|ES-MU|300|1;Valladolid|ES-VA|470|1;Vigo|ES-PO|362|1;A Coruña|ES-C|150|1;San Sebastián|ES-SS|200|1;Granada|ES-GR|180|1"},
	"IT": {200, "it", 0.6, "it en", "S.r.l.;S.r.l.;S.p.A.", "#####", "it",
		"Milano|IT-MI|201|6;Roma|IT-RM|001|4;Torino|IT-TO|101|2;Napoli|IT-NA|801|1;Bologna|IT-BO|401|2;Firenze|IT-FI|501|1;" +
			"Genova|IT-GE|161|1;Venezia|IT-VE|301|1;Verona|IT-VR|371|1;Padova|IT-PD|351|1;Bari|IT-BA|701|1;Palermo|IT-PA|901|1;" +
			"Brescia|IT-BS|251|1;Bergamo|IT-BG|241|1;Trento|IT-TN|381|1;Modena|IT-MO|411|1;Parma|IT-PR|431|1"},
	"BR": {230, "com.br", 0.65, "pt en", "Ltda;Ltda;S.A.", "#####-###", "pt",
		"São Paulo|BR-SP|01|8;Campinas|BR-SP|13|1;Rio de Janeiro|BR-RJ|20|4;Belo Horizonte|BR-MG|30|2;Curitiba|BR-PR|80|2;" +
			"Porto Alegre|BR-RS|90|2;Brasília|BR-DF|70|1;Salvador|BR-BA|40|1;Recife|BR-PE|50|1;Fortaleza|BR-CE|60|1;" +
			"Florianópolis|BR-SC|88|1;Goiânia|BR-GO|74|1;Manaus|BR-AM|69|1;Belém|BR-PA|66|1;Vitória|BR-ES|29|1"},
	"JP": {180, "co.jp jp", 0.6, "ja en", "K.K.;Co., Ltd.;Inc.", "###-####", "en",
		"Tokyo|JP-13|10|8;Osaka|JP-27|53|3;Yokohama|JP-14|22|2;Nagoya|JP-23|45|2;Fukuoka|JP-40|81|1;Sapporo|JP-01|06|1;" +
			"Kyoto|JP-26|60|1;Kobe|JP-28|65|1;Sendai|JP-04|98|1;Hiroshima|JP-34|73|1;Kawasaki|JP-14|21|1;Saitama|JP-11|33|1;Chiba|JP-12|26|1"},
	"SE": {110, "se", 0.65, "sv en", "AB", "### ##", "sv",
		"Stockholm|SE-AB|11|6;Göteborg|SE-O|41|3;Malmö|SE-M|21|2;Uppsala|SE-C|75|1;Linköping|SE-E|58|1;Örebro|SE-T|70|1;" +
			"Västerås|SE-U|72|1;Lund|SE-M|22|1;Umeå|SE-AC|90|1;Helsingborg|SE-M|25|1;Jönköping|SE-F|55|1"},
	"CH": {110, "ch", 0.7, "de fr it en", "AG;GmbH;SA;Sàrl", "####", "de",
		"Zürich|CH-ZH|80|5;Genève|CH-GE|12|3;Basel|CH-BS|40|2;Bern|CH-BE|30|2;Lausanne|CH-VD|10|2;Zug|CH-ZG|63|2;" +
			"Luzern|CH-LU|60|1;St. Gallen|CH-SG|90|1;Lugano|CH-TI|69|1;Winterthur|CH-ZH|84|1"},
	"SG": {80, "com.sg sg", 0.4, "en zh", "Pte Ltd;Pte Ltd;Ltd", "######", "en",
		"Singapore|SG-SG-01|01|5;Singapore|SG-SG-04|48|1;Singapore|SG-SG-05|11|1;Singapore|SG-SG-02|53|1;Singapore|SG-SG-03|73|1"},
	"IE": {60, "ie", 0.5, "en", "Ltd;Ltd;DAC", "@## @#@#", "en",
		"Dublin|IE-D|D02|6;Dublin|IE-D|D04|2;Cork|IE-C|T12|2;Galway|IE-G|H91|1;Limerick|IE-LK|V94|1;Waterford|IE-WD|X91|1;" +
			"Kilkenny|IE-KK|R95|1;Athlone|IE-WH|N37|1;Drogheda|IE-LH|A92|1;Bray|IE-WW|A98|1"},
	"MX": {110, "com.mx mx", 0.6, "es en", "S.A. de C.V.;S. de R.L. de C.V.", "#####", "es",
		"Ciudad de México|MX-DIF|0|6;Guadalajara|MX-JAL|44|2;Monterrey|MX-NLE|64|2;Puebla|MX-PUE|72|1;Querétaro|MX-QUE|76|1;" +
			"Tijuana|MX-BCN|22|1;León|MX-GUA|37|1;Mérida|MX-YUC|97|1;Cancún|MX-ROO|77|1;Toluca|MX-MEX|50|1;" +
			"Aguascalientes|MX-AGU|20|1;Chihuahua|MX-CHH|31|1;Saltillo|MX-COA|25|1;San Luis Potosí|MX-SLP|78|1"},
	"PL": {110, "pl com.pl", 0.7, "pl en", "sp. z o.o.;sp. z o.o.;S.A.", "##-###", "pl",
		"Warszawa|PL-MZ|0|6;Kraków|PL-MA|3|3;Wrocław|PL-DS|5|2;Poznań|PL-WP|6|2;Gdańsk|PL-PM|8|2;Łódź|PL-LD|9|1;" +
			"Katowice|PL-SL|40|1;Szczecin|PL-ZP|7|1;Lublin|PL-LU|20|1;Bydgoszcz|PL-KP|85|1;Białystok|PL-PD|15|1;Rzeszów|PL-PK|35|1"},
	"DK": {60, "dk", 0.7, "da en", "ApS;A/S", "####", "da",
		"København|DK-84|1|5;Aarhus|DK-82|8|2;Odense|DK-83|5|1;Aalborg|DK-81|9|1;Roskilde|DK-85|4|1;Esbjerg|DK-83|67|1;Vejle|DK-83|71|1"},
	"NO": {60, "no", 0.7, "no en", "AS;ASA", "####", "no",
		"Oslo|NO-NO-03|0|5;Bergen|NO-NO-12|50|2;Trondheim|NO-NO-16|70|1;Stavanger|NO-NO-11|40|1;Drammen|NO-NO-06|30|1;" +
			"Kristiansand|NO-NO-10|46|1;Tromsø|NO-NO-19|90|1;Sandvika|NO-NO-02|13|1"},
	"FI": {50, "fi", 0.7, "fi sv en", "Oy;Oyj", "#####", "fi",
		"Helsinki|FI-ES|00|5;Espoo|FI-ES|02|2;Tampere|FI-LS|33|2;Turku|FI-LS|20|1;Oulu|FI-OL|90|1;Jyväskylä|FI-LS|40|1;" +
			"Kuopio|FI-IS|70|1;Lahti|FI-ES|15|1"},
	"AT": {80, "at co.at", 0.7, "de en", "GmbH;GmbH;AG", "####", "de",
		"Wien|AT-9|1|6;Graz|AT-6|80|2;Linz|AT-4|40|2;Salzburg|AT-5|50|1;Innsbruck|AT-7|60|1;Klagenfurt|AT-2|90|1;" +
			"St. Pölten|AT-3|31|1;Dornbirn|AT-8|68|1;Eisenstadt|AT-1|70|1"},
	"BE": {80, "be", 0.6, "nl fr en", "BV;SRL;NV;SA", "####", "nl",
		"Bruxelles|BE-BRU|10|5;Antwerpen|BE-VAN|20|3;Gent|BE-VOV|90|2;Leuven|BE-VBR|30|1;Liège|BE-WLG|40|1;Brugge|BE-VWV|80|1;" +
			"Namur|BE-WNA|50|1;Charleroi|BE-WHT|60|1;Hasselt|BE-VLI|35|1;Mechelen|BE-VAN|28|1;Wavre|BE-WBR|13|1"},
	"NZ": {50, "co.nz nz", 0.6, "en", "Ltd;Limited", "####", "en",
		"Auckland|NZ-AUK|10|5;Wellington|NZ-WGN|60|2;Christchurch|NZ-CAN|80|2;Hamilton|NZ-WKO|32|1;Tauranga|NZ-BOP|31|1;" +
			"Dunedin|NZ-OTA|90|1;Nelson|NZ-NSN|70|1;Napier|NZ-HKB|41|1"},
	"ZA": {80, "co.za", 0.6, "en af", "(Pty) Ltd;(Pty) Ltd;Ltd", "####", "en",
		"Johannesburg|ZA-GT|20|4;Sandton|ZA-GT|21|2;Pretoria|ZA-GT|00|2;Cape Town|ZA-WC|80|4;Stellenbosch|ZA-WC|76|1;" +
			"Durban|ZA-NL|40|2;Gqeberha|ZA-EC|60|1;Bloemfontein|ZA-FS|93|1;Polokwane|ZA-LP|07|1;Mbombela|ZA-MP|12|1"},
	"IL": {60, "co.il", 0.4, "he en", "Ltd", "#######", "en",
		"Tel Aviv|IL-TA|6|6;Herzliya|IL-TA|46|2;Jerusalem|IL-JM|9|2;Haifa|IL-HA|3|2;Petah Tikva|IL-M|49|1;Ra'anana|IL-M|43|1;" +
			"Beersheba|IL-D|84|1;Netanya|IL-M|42|1;Rehovot|IL-M|76|1;Yokneam|IL-Z|20|1"},
	"AE": {70, "ae", 0.4, "en ar", "LLC;FZ-LLC;FZE", "", "en",
		"Dubai|AE-DU||8;Abu Dhabi|AE-AZ||3;Sharjah|AE-SH||1;Ajman|AE-AJ||1;Ras Al Khaimah|AE-RK||1"},
	"CN": {140, "cn com.cn", 0.7, "zh en", "Co., Ltd.;Co., Ltd.;Ltd.", "######", "en",
		"Beijing|CN-11|100|5;Shanghai|CN-31|200|5;Shenzhen|CN-44|518|4;Guangzhou|CN-44|510|2;Hangzhou|CN-33|310|2;" +
			"Chengdu|CN-51|610|1;Nanjing|CN-32|210|1;Suzhou|CN-32|215|1;Wuhan|CN-42|430|1;Tianjin|CN-12|300|1;Xi'an|CN-61|710|1;" +
			"Chongqing|CN-50|400|1;Xiamen|CN-35|361|1;Qingdao|CN-37|266|1"},
	"KR": {80, "co.kr kr", 0.6, "ko en", "Co., Ltd.;Inc.;Corp.", "#####", "en",
		"Seoul|KR-11|0|6;Busan|KR-26|4|2;Incheon|KR-28|2|1;Daegu|KR-27|4|1;Daejeon|KR-30|3|1;Gwangju|KR-29|6|1;" +
			"Seongnam|KR-41|13|2;Suwon|KR-41|16|1;Ulsan|KR-31|4|1"},
	"PT": {60, "pt", 0.65, "pt en", "Lda;Lda;S.A.", "####-###", "pt",
		"Lisboa|PT-11|1|5;Porto|PT-13|4|3;Braga|PT-03|47|1;Coimbra|PT-06|30|1;Aveiro|PT-01|38|1;Faro|PT-08|80|1;" +
			"Funchal|PT-30|90|1;Setúbal|PT-15|29|1"},
	"AR": {60, "com.ar", 0.65, "es en", "S.A.;S.R.L.;S.A.S.", "@####@@@", "es",
		"Buenos Aires|AR-C|C1|6;Córdoba|AR-X|X5|2;Rosario|AR-S|S2|1;Mendoza|AR-M|M5|1;La Plata|AR-B|B1|1;" +
			"Mar del Plata|AR-B|B7|1;San Miguel de Tucumán|AR-T|T4|1"},
	"CO": {50, "com.co co", 0.5, "es en", "S.A.S.;S.A.S.;Ltda", "######", "es",
		"Bogotá|CO-DC|11|6;Medellín|CO-ANT|05|3;Cali|CO-VAC|76|2;Barranquilla|CO-ATL|08|1;Cartagena|CO-BOL|13|1;" +
			"Bucaramanga|CO-SAN|68|1;Pereira|CO-RIS|66|1"},
	"CL": {40, "cl", 0.65, "es en", "SpA;S.A.;Ltda", "#######", "es",
		"Santiago|CL-RM|75|6;Valparaíso|CL-VS|23|1;Viña del Mar|CL-VS|25|1;Concepción|CL-BI|40|1;Antofagasta|CL-AN|12|1;" +
			"La Serena|CL-CO|17|1;Temuco|CL-AR|48|1;Puerto Montt|CL-LL|54|1"},
	"TR": {60, "com.tr", 0.6, "tr en", "A.Ş.;Ltd. Şti.", "#####", "en",
		"Istanbul|TR-34|34|6;Ankara|TR-06|06|2;Izmir|TR-35|35|2;Bursa|TR-16|16|1;Antalya|TR-07|07|1;Kocaeli|TR-41|41|1;" +
			"Konya|TR-42|42|1;Gaziantep|TR-27|27|1;Kayseri|TR-38|38|1;Eskişehir|TR-26|26|1"},
	"RU": {60, "ru", 0.75, "ru en", "OOO;AO", "######", "en",
		"Moscow|RU-MOW|1|6;Saint Petersburg|RU-SPE|19|3;Novosibirsk|RU-NVS|63|1;Yekaterinburg|RU-SVE|62|1;Kazan|RU-TA|42|1;" +
			"Nizhny Novgorod|RU-NIZ|60|1;Samara|RU-SAM|44|1;Krasnodar|RU-KDA|35|1;Rostov-on-Don|RU-ROS|34|1"},
	"UA": {40, "com.ua ua", 0.65, "uk en", "LLC;TOV", "#####", "en",
		"Kyiv|UA-30|01|6;Kharkiv|UA-63|61|2;Lviv|UA-46|79|2;Odesa|UA-51|65|1;Dnipro|UA-12|49|1;Zaporizhzhia|UA-23|69|1;Vinnytsia|UA-05|21|1"},
	"CZ": {50, "cz", 0.7, "cs en", "s.r.o.;s.r.o.;a.s.", "### ##", "en",
		"Praha|CZ-PR|1|6;Brno|CZ-JM|6|2;Ostrava|CZ-MO|7|1;Plzeň|CZ-PL|3|1;Liberec|CZ-LI|46|1;Olomouc|CZ-OL|77|1;" +
			"České Budějovice|CZ-JC|37|1;Hradec Králové|CZ-KR|50|1;Pardubice|CZ-PA|53|1;Zlín|CZ-ZL|76|1"},
	"HU": {35, "hu", 0.7, "hu en", "Kft.;Zrt.", "####", "en",
		"Budapest|HU-BU|1|6;Debrecen|HU-DE|40|1;Szeged|HU-SD|67|1;Miskolc|HU-MI|35|1;Pécs|HU-PS|76|1;Győr|HU-GY|90|1;" +
			"Kecskemét|HU-KM|60|1;Székesfehérvár|HU-SF|80|1"},
	"RO": {40, "ro", 0.7, "ro en", "S.R.L.;S.A.", "######", "en",
		"București|RO-B|0|6;Cluj-Napoca|RO-CJ|40|2;Timișoara|RO-TM|30|1;Iași|RO-IS|70|1;Constanța|RO-CT|90|1;" +
			"Brașov|RO-BV|50|1;Sibiu|RO-SB|55|1;Oradea|RO-BH|41|1;Craiova|RO-DJ|20|1"},
	"GR": {35, "gr", 0.6, "el en", "S.A.;IKE;EPE", "### ##", "en",
		"Athens|GR-A1|10|6;Piraeus|GR-A1|18|1;Thessaloniki|GR-54|54|2;Patras|GR-13|26|1;Heraklion|GR-91|71|1;" +
			"Larissa|GR-42|41|1;Volos|GR-43|38|1;Chania|GR-94|73|1"},
	"PH": {50, "com.ph ph", 0.4, "en", "Inc.;Corp.", "####", "en",
		"Manila|PH-MNL|10|5;Cebu City|PH-CEB|60|2;Davao City|PH-DAS|80|1;Iloilo City|PH-ILI|50|1;Baguio|PH-BEN|26|1;" +
			"Angeles|PH-PAM|20|1;Bacolod|PH-NEC|61|1;Cagayan de Oro|PH-MSR|90|1"},
	"ID": {60, "co.id id", 0.5, "id en", "PT;PT;CV", "#####", "en",
		"Jakarta|ID-JK|10|6;Surabaya|ID-JI|60|2;Bandung|ID-JB|40|2;Medan|ID-SU|20|1;Semarang|ID-JT|50|1;Denpasar|ID-BA|80|1;" +
			"Yogyakarta|ID-YO|55|1;Makassar|ID-SN|90|1;Tangerang|ID-BT|15|1;Batam|ID-KR|29|1"},
	"MY": {45, "com.my my", 0.55, "en ms", "Sdn Bhd;Sdn Bhd;Bhd", "#####", "en",
		"Kuala Lumpur|MY-14|50|6;Petaling Jaya|MY-10|46|2;Shah Alam|MY-10|40|1;Cyberjaya|MY-10|63|1;George Town|MY-07|10|1;" +
			"Johor Bahru|MY-01|80|1;Ipoh|MY-08|30|1;Kota Kinabalu|MY-12|88|1;Kuching|MY-13|93|1;Melaka|MY-04|75|1"},
	"TH": {40, "co.th", 0.45, "th en", "Co., Ltd.;PCL", "#####", "en",
		"Bangkok|TH-10|10|6;Nonthaburi|TH-12|11|1;Chiang Mai|TH-50|50|1;Phuket|TH-83|83|1;Pattaya|TH-S|20|1;" +
			"Khon Kaen|TH-40|40|1;Hat Yai|TH-90|90|1;Chon Buri|TH-20|20|1;Rayong|TH-21|21|1"},
	"VN": {40, "vn com.vn", 0.5, "vi en", "Co., Ltd.;JSC", "######", "en",
		"Ho Chi Minh City|VN-65|70|6;Hanoi|VN-64|10|4;Da Nang|VN-60|55|1;Hai Phong|VN-62|18|1;Can Tho|VN-48|94|1;" +
			"Nha Trang|VN-34|65|1;Bien Hoa|VN-39|76|1;Thu Dau Mot|VN-57|75|1"},
	"NG": {45, "com.ng ng", 0.5, "en", "Ltd;Plc", "######", "en",
		"Lagos|NG-LA|10|6;Abuja|NG-FC|90|2;Port Harcourt|NG-RI|50|1;Ibadan|NG-OY|20|1;Kano|NG-KN|70|1;Benin City|NG-ED|30|1;Enugu|NG-EN|40|1"},
	"KE": {25, "co.ke", 0.5, "en sw", "Ltd;Limited", "#####", "en",
		"Nairobi|KE-110|00|6;Mombasa|KE-300|80|1;Kisumu|KE-600|40|1;Nakuru|KE-700|20|1;Eldoret|KE-700|30|1;Thika|KE-200|01|1"},
	"EG": {30, "com.eg eg", 0.4, "ar en", "S.A.E.;LLC", "#####", "en",
		"Cairo|EG-C|11|6;Giza|EG-GZ|12|2;Alexandria|EG-ALX|21|2;Port Said|EG-PTS|42|1;Suez|EG-SUZ|43|1;Mansoura|EG-DK|35|1;Luxor|EG-LX|85|1"},
	"SA": {35, "com.sa sa", 0.5, "ar en", "LLC;Co.", "#####", "en",
		"Riyadh|SA-01|1|6;Jeddah|SA-02|2|3;Mecca|SA-02|2|1;Dammam|SA-04|3|1;Khobar|SA-04|3|1;Medina|SA-03|4|1"},
	"HK": {50, "com.hk hk", 0.5, "en zh", "Limited;Ltd", "", "en", "Hong Kong|||5;Kowloon|||2;Tsuen Wan|||1;Sha Tin|||1"},
	"TW": {40, "com.tw tw", 0.6, "zh en", "Co., Ltd.;Inc.", "###", "en",
		"Taipei|TW-TPE|10|6;New Taipei|TW-TPQ|22|2;Taichung|TW-TXG|40|1;Kaohsiung|TW-KHH|80|1;Hsinchu|TW-HSZ|30|1;" +
			"Tainan|TW-TNN|70|1;Taoyuan|TW-TAO|33|1"},
	"PK": {30, "com.pk pk", 0.5, "en ur", "(Pvt) Ltd;Ltd", "#####", "en",
		"Karachi|PK-SD|74|5;Lahore|PK-PB|54|4;Islamabad|PK-IS|44|2;Faisalabad|PK-PB|38|1;Rawalpindi|PK-PB|46|1;Peshawar|PK-NW|25|1"},
	"BD": {20, "com.bd", 0.5, "bn en", "Ltd;Limited", "####", "en",
		"Dhaka|BD-13|12|6;Chittagong|BD-10|40|2;Khulna|BD-27|90|1;Sylhet|BD-60|31|1;Rajshahi|BD-54|60|1;Gazipur|BD-18|17|1"},
	"LU": {15, "lu", 0.6, "fr de en", "S.A.;S.à r.l.", "####", "fr", ""},
	"EE": {12, "ee", 0.7, "et en", "OÜ;AS", "#####", "en", ""},
	"LT": {12, "lt", 0.7, "lt en", "UAB;AB", "#####", "en", ""},
	"LV": {10, "lv", 0.7, "lv en", "SIA;AS", "####", "en", ""},
	"SK": {15, "sk", 0.7, "sk en", "s.r.o.;a.s.", "### ##", "en", ""},
	"SI": {10, "si", 0.7, "sl en", "d.o.o.;d.d.", "####", "en", ""},
	"HR": {12, "hr", 0.7, "hr en", "d.o.o.;d.d.", "#####", "en", ""},
	"BG": {15, "bg", 0.7, "bg en", "OOD;EOOD;AD", "####", "en", ""},
	"RS": {12, "rs", 0.6, "sr en", "d.o.o.;a.d.", "#####", "en", ""},
	"IS": {6, "is", 0.7, "is en", "ehf.;hf.", "###", "en", ""},
	"CY": {10, "com.cy", 0.5, "el en", "Ltd", "####", "en", ""},
	"MT": {8, "com.mt", 0.4, "en mt", "Ltd", "@@@ ####", "en", ""},
	"PE": {25, "com.pe pe", 0.5, "es en", "S.A.C.;S.A.", "#####", "es", ""},
	"EC": {10, "com.ec ec", 0.5, "es", "S.A.;Cía. Ltda.", "######", "es", ""},
	"UY": {10, "com.uy", 0.5, "es", "S.A.;S.R.L.", "#####", "es", ""},
	"CR": {10, "co.cr", 0.5, "es en", "S.A.;S.R.L.", "#####", "es", ""},
	"PA": {8, "com.pa", 0.4, "es en", "S.A.;Inc.", "####", "es", ""},
	"DO": {8, "com.do", 0.4, "es", "S.R.L.;S.A.", "#####", "es", ""},
	"GT": {8, "com.gt", 0.4, "es", "S.A.", "#####", "es", ""},
	"VE": {8, "com.ve", 0.4, "es", "C.A.;S.A.", "####", "es", ""},
	"MA": {12, "ma", 0.5, "fr ar en", "SARL;S.A.", "#####", "fr", ""},
	"TN": {8, "com.tn tn", 0.5, "fr ar", "SARL;S.A.", "####", "fr", ""},
	"GH": {10, "com.gh", 0.5, "en", "Ltd", "", "en", ""},
	"QA": {10, "com.qa qa", 0.4, "ar en", "W.L.L.;LLC", "", "en", ""},
	"KW": {8, "com.kw", 0.4, "ar en", "W.L.L.;K.S.C.", "#####", "en", ""},
	"BH": {6, "com.bh", 0.4, "ar en", "W.L.L.;B.S.C.", "###", "en", ""},
	"OM": {6, "com.om", 0.4, "ar en", "LLC;SAOG", "###", "en", ""},
	"JO": {8, "com.jo jo", 0.4, "ar en", "LLC;PSC", "#####", "en", ""},
	"LB": {8, "com.lb", 0.4, "ar fr en", "SAL;SARL", "#### ####", "en", ""},
	"LK": {10, "lk", 0.5, "en si", "(Pvt) Ltd;PLC", "#####", "en", ""},
	"NP": {6, "com.np", 0.5, "ne en", "Pvt. Ltd.", "#####", "en", ""},
	"KZ": {10, "kz", 0.6, "ru kk en", "LLP;JSC", "######", "en", ""},
	"GE": {6, "ge", 0.6, "ka en", "LLC;JSC", "####", "en", ""},
	"AM": {6, "am", 0.6, "hy en", "LLC;CJSC", "####", "en", ""},
	"BY": {8, "by", 0.7, "ru be", "LLC;OJSC", "######", "en", ""},
	"MD": {5, "md", 0.6, "ro ru", "S.R.L.", "MD-####", "en", ""},
	"MU": {5, "mu", 0.5, "en fr", "Ltd", "#####", "en", ""},
	"TZ": {8, "co.tz", 0.5, "sw en", "Ltd", "#####", "en", ""},
	"UG": {8, "co.ug", 0.5, "en", "Ltd", "", "en", ""},
	"RW": {5, "rw", 0.5, "rw en fr", "Ltd", "", "en", ""},
	"ET": {6, "com.et", 0.5, "am en", "PLC", "####", "en", ""},
	"SN": {5, "sn", 0.5, "fr", "SARL;SA", "#####", "fr", ""},
	"CI": {5, "ci", 0.5, "fr", "SARL;SA", "", "fr", ""},
	"CM": {5, "cm", 0.4, "fr en", "SARL;SA", "", "fr", ""},
}

// countryDefaults is the spec of a country with no entry above.
var countryDefaults = countrySpec{weight: 3, local: 0.45, langs: "en", legal: "Ltd;LLC", zip: "#####", street: "en"}

// defaultLanguages gives the primary site language of unlisted countries.
var defaultLanguages = map[string]string{
	"AD": "ca", "AO": "pt", "BJ": "fr", "BF": "fr", "BI": "fr", "BO": "es", "CD": "fr", "CF": "fr", "CG": "fr", "CU": "es",
	"CV": "pt", "DJ": "fr", "DZ": "ar", "GA": "fr", "GN": "fr", "GQ": "es", "GW": "pt", "HN": "es", "HT": "fr", "IQ": "ar",
	"IR": "fa", "KM": "fr", "LY": "ar", "MC": "fr", "ML": "fr", "MG": "fr", "MR": "ar", "MZ": "pt", "NE": "fr", "NI": "es",
	"PY": "es", "SV": "es", "ST": "pt", "SY": "ar", "TD": "fr", "TG": "fr", "TL": "pt", "YE": "ar", "SD": "ar", "AF": "fa",
	"AZ": "az", "AL": "sq", "BA": "bs", "ME": "sr", "MK": "mk", "MN": "mn", "UZ": "uz", "KG": "ru", "TM": "ru", "KH": "km",
	"LA": "lo", "MM": "my", "BN": "ms", "BT": "dz", "MV": "dv", "PS": "ar", "LI": "de", "SM": "it", "VA": "it", "PR": "es",
	"MO": "zh", "AW": "nl", "CW": "nl", "SR": "nl", "SO": "so", "ER": "ti",
}

// streetStyles are street patterns by style: $ is a street name, # a
// house number.
var streetStyles = map[string][]string{
	"en": {"# $ Street", "# $ Avenue", "# $ Road", "# $ Drive", "# $ Lane", "# $ Boulevard", "# $ Way", "# $ Place", "# $ Court", "# $ Parkway"},
	"de": {"$straße #", "$weg #", "$platz #", "$allee #", "$ring #"},
	"fr": {"# rue $", "# avenue $", "# boulevard $", "# place $", "# quai $"},
	"es": {"Calle $ #", "Avenida $ #", "Paseo $ #", "Plaza $ #"},
	"it": {"Via $ #", "Corso $ #", "Viale $ #", "Piazza $ #"},
	"nl": {"$straat #", "$weg #", "$laan #", "$gracht #", "$plein #"},
	"pt": {"Rua $, #", "Avenida $, #", "Travessa $, #", "Praça $, #"},
	"sv": {"$gatan #", "$vägen #", "$torget #"},
	"da": {"$gade #", "$vej #", "$torv #"},
	"no": {"$gata #", "$veien #", "$torget #"},
	"fi": {"$katu #", "$tie #", "$kuja #"},
	"pl": {"ul. $ #", "al. $ #", "pl. $ #"},
}

var streetNames = map[string][]string{
	"en": {"Main", "Market", "Park", "Oak", "Maple", "Cedar", "Pine", "Elm", "Washington", "Lake", "Hill", "Church", "High", "Mill",
		"River", "Spring", "Union", "Franklin", "Commerce", "Technology", "Innovation", "Harbor", "Station", "King", "Queen",
		"Victoria", "Bridge", "Walnut", "Sunset", "Broad", "Madison", "Jefferson", "Lincoln", "Centre", "Willow", "Industrial",
		"Enterprise", "Meadow", "Forest", "Riverside", "Chestnut", "Highland", "Grove", "Airport", "College", "Pacific", "Atlantic"},
	"de": {"Haupt", "Bahnhof", "Schiller", "Goethe", "Industrie", "Linden", "Garten", "Berg", "Friedrich", "Markt", "Kirch",
		"Schul", "Wald", "Mühlen", "Rosen", "Post", "Hafen", "Wilhelm", "Kaiser", "Lessing", "Mozart", "Feld", "Gewerbe"},
	"fr": {"de la Paix", "du Commerce", "Victor Hugo", "de la République", "Jean Jaurès", "Pasteur", "de Rivoli",
		"des Lilas", "de la Gare", "Saint-Honoré", "du Général de Gaulle", "Voltaire", "Gambetta", "de la Liberté", "des Tanneurs"},
	"es": {"Mayor", "de Alcalá", "Gran Vía", "del Sol", "de la Constitución", "Real", "de Colón", "de la Castellana",
		"de Serrano", "de Goya", "San Martín", "de la Reforma", "Libertad", "de los Insurgentes"},
	"it": {"Roma", "Garibaldi", "Mazzini", "Dante", "Vittorio Emanuele", "Cavour", "Verdi", "della Repubblica", "Marconi",
		"XX Settembre", "Matteotti", "del Corso", "Manzoni"},
	"nl": {"Kerk", "Molen", "Stations", "Dorps", "Keizers", "Heren", "Prinsen", "Industrie", "Linden", "School", "Haven", "Beuken"},
	"pt": {"Augusta", "das Flores", "da Liberdade", "Paulista", "Sete de Setembro", "da Consolação", "do Comércio", "Dom Pedro II",
		"Brasil", "São João", "Rio Branco", "dos Andradas"},
	"sv": {"Drottning", "Kungs", "Stor", "Sveav", "Hamn", "Kyrko", "Skol", "Ring", "Birger Jarls", "Strand"},
	"da": {"Vester", "Nørre", "Øster", "Strand", "Kirke", "Skole", "Havne", "Bred", "Amager", "Gammel Konge"},
	"no": {"Stor", "Kirke", "Skole", "Hav", "Strand", "Dronning", "Konge", "Tor", "Bygdøy"},
	"fi": {"Mannerheimin", "Aleksanterin", "Hämeen", "Kauppa", "Satama", "Koulu", "Kirkko", "Ranta"},
	"pl": {"Marszałkowska", "Długa", "Piękna", "Mickiewicza", "Słowackiego", "Kościuszki", "Grunwaldzka", "Polna", "Ogrodowa"},
}

// placeCountry is a country ready to sample.
type placeCountry struct {
	code     string
	name     string
	spec     countrySpec
	tlds     []string // checked public suffixes
	langs    []string
	legal    []string
	cities   []city
	cityPick weighted
	streets  []string
	names    []string
	phones   *phoneBook
}

type city struct {
	name, state, zipPrefix string
}

// buildPlaces loads the countries geo knows, keeps those that can be given
// an address and a phone, and prepares their samplers.
func buildPlaces() ([]*placeCountry, weighted) {
	var out []*placeCountry
	var weights []int
	skip := map[string]bool{"AQ": true, "BV": true, "GS": true, "HM": true, "PN": true, "TF": true, "UM": true, "TK": true, "IO": true}
	for _, c := range geo.Countries() {
		if skip[c.Code] {
			continue
		}
		spec, listed := countrySpecs[c.Code]
		if !listed {
			spec = countryDefaults
			spec.tlds = strings.ToLower(c.Code)
			if l, ok := defaultLanguages[c.Code]; ok {
				spec.langs = l
				if l != "en" {
					spec.langs += " en"
				}
			}
		}
		pc := &placeCountry{code: c.Code, name: c.Name, spec: spec, legal: strings.Split(spec.legal, ";"), langs: strings.Fields(spec.langs)}
		for _, t := range strings.Fields(spec.tlds) {
			if suffixIsRegistrable(t) {
				pc.tlds = append(pc.tlds, t)
			}
		}
		var cw []int
		if spec.cities != "" {
			for _, e := range strings.Split(spec.cities, ";") {
				f := strings.Split(e, "|")
				pc.cities = append(pc.cities, city{name: f[0], state: f[1], zipPrefix: f[2]})
				cw = append(cw, atoiSafe(f[3]))
			}
		} else {
			for _, s := range geo.Subdivisions(c.Code) {
				if n := cleanPlaceName(s.Name); n != "" {
					pc.cities = append(pc.cities, city{name: n, state: s.Code})
					cw = append(cw, 1)
				}
			}
		}
		if len(pc.cities) == 0 {
			// No subdivisions (Monaco, Puerto Rico...): the city is the
			// country and the state stays empty.
			pc.cities = []city{{name: c.Name}}
			cw = []int{1}
		}
		pc.cityPick = newWeighted(cw)
		st := spec.street
		if st == "" {
			st = "en"
		}
		pc.streets, pc.names = streetStyles[st], streetNames[st]
		pc.phones = &phoneBook{region: c.Code}
		out = append(out, pc)
		weights = append(weights, spec.weight)
	}
	return out, newWeighted(weights)
}

// suffixIsRegistrable reports whether names directly under the suffix are
// registrable domains (false for suffixes like "bd" where the list says
// every "x.bd" is itself a suffix).
func suffixIsRegistrable(suffix string) bool {
	d := "example." + suffix
	root, err := publicsuffix.EffectiveTLDPlusOne(d)
	if err != nil || root != d {
		return false
	}
	ps, icann := publicsuffix.PublicSuffix(d)
	return icann && ps == suffix
}

// cleanPlaceName turns a subdivision name into something usable as a city:
// no bracketed alternatives, language tags or footnote marks.
func cleanPlaceName(s string) string {
	if i := strings.IndexAny(s, "[(*"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ","))
	for _, suf := range []string{" zila", ", thanh pho", ", thu do", " Municipality", " län", " lääni"} {
		s = strings.TrimSuffix(s, suf)
	}
	if strings.ContainsAny(s, "?`") || len(s) < 2 {
		return ""
	}
	return s
}

func atoiSafe(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// appendZip fills a postal code pattern, keeping a city's prefix.
func appendZip(b []byte, r *rng, pattern, prefix string) []byte {
	if pattern == "" {
		return b
	}
	b = append(b, prefix...)
	for k := len(prefix); k < len(pattern); k++ {
		switch c := pattern[k]; c {
		case '#':
			b = append(b, byte('0'+r.intn(10)))
		case '@':
			b = append(b, byte('A'+r.intn(26)))
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendStreet writes a street address in the country's style.
func appendStreet(b []byte, r *rng, pc *placeCountry) []byte {
	pat := pick(r, pc.streets)
	name := pick(r, pc.names)
	num := 1 + r.intn(250)
	if r.chance(0.15) {
		num = 1 + r.intn(2500)
	}
	for k := 0; k < len(pat); k++ {
		switch pat[k] {
		case '$':
			b = append(b, name...)
		case '#':
			b = appendInt(b, num)
		default:
			b = append(b, pat[k])
		}
	}
	if pc.code == "US" && r.chance(0.3) {
		b = append(b, ", Suite "...)
		b = appendInt(b, 100+r.intn(900))
	}
	return b
}

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}
