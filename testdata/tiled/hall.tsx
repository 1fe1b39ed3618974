<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="hall" tilewidth="16" tileheight="16" tilecount="8" columns="4">
 <image source="hall.png" width="64" height="32"/>
 <tile id="0">
  <properties>
   <property name="cost" type="float" value="1"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="wall" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="cost" type="float" value="2"/>
   <property name="note" value="a door: slower to pass"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="cost" type="float" value="4"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="cost" type="float" value="1"/>
   <property name="spawn" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="cost" type="float" value="1"/>
   <property name="goal" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="cost" type="int" value="1"/>
   <property name="oneway" value="E"/>
  </properties>
 </tile>
</tileset>
